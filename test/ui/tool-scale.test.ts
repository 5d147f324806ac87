// Many tools in a real VS Code (code-server): a server of 1,000 tools (and two for its app only) from the
// mcpAgent.servers setting. The Tools view says which tools are loaded, found by search, turned off or for
// the app only; a checkbox turns a tool off for the model and Pin keeps one loaded, and what the model
// is sent follows; the chat says once how many tools are found by search, and the model reaches the
// catalogue's last tool with the API's tool search. Screenshots of the view and of the chat's notice.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { repoRoot } from '../support/repo-root';
import { seeker } from '../fakes/tool-seeker';
import { chatRig } from './chat-rig';
import { shownText } from '../support/shown-text';

const many = join(repoRoot(), 'out', 'test', 'fakes', 'mcp-many-tools.js');
const reachedAt: number[] = [];

describe('a thousand tools in the Tools view and the chat', () => {
  const rig = chatRig(
    'tool-scale',
    seeker('many__tool_999', 'tool 999', reachedAt),
    {},
    {
      'mcpAgent.model': 'claude-sonnet-5-5',
      'mcpAgent.toolSearch': 'api',
      'mcpAgent.servers': { many: { type: 'stdio', command: process.execPath, args: [many, '1000', '2'], env: { ELECTRON_RUN_AS_NODE: '1' } } },
    },
  );

  test('the Tools view says where each tool stands and takes choices; the chat says once what is found by search, the model reaches the last tool and is sent what the view chose', async (t) => {
    const vs = rig.vs;
    await vs.openChat();
    const server = await vs.waitForTreeItem('Tools', /many\s*ready · 1,002 tools · 0 loaded/, 60_000);
    // The trees have a side bar of their own: the Tools view has the room to show its rows.
    await server.locator('.monaco-tl-twistie').click();
    const row = (name: string) => vs.view('Tools').locator('.monaco-list-row', { has: vs.page.locator('.label-name', { hasText: new RegExp(`^${name}$`) }) });
    try {
      await row('tool_0').waitFor();
    } catch (err) {
      t.diagnostic(`rows: ${JSON.stringify(await vs.treeItems('Tools'))}; screenshot: ${await vs.screenshot('tools-view-failed')}`);
      throw err;
    }
    assert.match(await shownText(row('tool_0')), /found by search · asks first/);
    // Off for the model with its checkbox; pinned from its inline action.
    await row('tool_1').locator('.custom-view-tree-node-item-checkbox').click();
    await vs.waitForTreeItem('Tools', /tool_1\s*turned off/);
    await row('tool_0').hover();
    await row('tool_0').locator('.action-label[aria-label="Pin for the Model"]').click();
    await vs.waitForTreeItem('Tools', /tool_0\s*loaded, pinned/);
    await vs.waitForTreeItem('Tools', /many\s*ready · 1,002 tools · 1 loaded/);
    // The app-only tools are at the end of the list: scrolled to, they say so.
    await vs.page.keyboard.press('End');
    await vs.waitForTreeItem('Tools', /view_1\s*for its app only/);
    await vs.page.keyboard.press('Home');
    await row('tool_2').waitFor();
    t.diagnostic(`screenshot: ${await vs.screenshot('tools-view-deferred-and-off')}`);

    // The chat, with the choices just made: one test, so that what the model is sent follows this test's own choices.
    const chat = await vs.openChat();
    await chat.locator('#input').fill('Run the last tool of the many server.');
    await chat.locator('#input').press('Enter');
    const notice = chat.locator('.notice', { hasText: 'found by search' });
    await notice.waitFor({ timeout: 60_000 });
    assert.equal((await shownText(notice)).trim(), '1,019 tools from 5 servers: 10 loaded, the rest found by search.');
    // The tool found is the server's own, not read-only: it asks like any such tool.
    const approval = chat.locator('.approval[data-state="pending"]');
    await approval.waitFor({ timeout: 60_000 });
    t.diagnostic(`screenshot: ${await vs.screenshot('chat-tools-notice')}`);
    await approval.locator('button[data-decision="once"]').click();
    await chat.locator('.markdown', { hasText: 'result: tool_999' }).waitFor({ timeout: 60_000 });
    assert.deepEqual(reachedAt, [1]);
    const sent = rig.api.requests[0]!.body.tools!;
    assert.ok(!sent.some((x) => x.name === 'many__tool_1'), 'the tool turned off is not sent');
    assert.equal(sent.find((x) => x.name === 'many__tool_0')?.defer_loading, undefined, 'the pinned tool is loaded');
    assert.ok(!sent.some((x) => x.name?.startsWith('many__view_')), 'app-only tools are never sent');
    t.diagnostic(`screenshot: ${await vs.screenshot('chat-tool-found-and-run')}`);
    // /tools says the same as the view.
    await chat.locator('#input').fill('/tools');
    await chat.locator('#input').press('Enter');
    const listing = chat.locator('.notice-listing').last();
    await listing.waitFor();
    assert.match(await shownText(listing), /1,019 tools from 5 servers: 10 loaded, the rest found by search; 1 turned off/);
    assert.match(await shownText(listing), /many__tool_0\s+\[loaded, pinned\]/);
    t.diagnostic(`screenshot: ${await vs.screenshot('chat-tools-listing')}`);
  });
});
