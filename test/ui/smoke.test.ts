// The extension loads in a real VS Code: the chat alone in its activity-bar container, the tree views in another.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startVscode, type Vscode } from '../vscode/harness';
import { shownText } from '../support/shown-text';

describe('MCP Agent in VS Code (smoke)', () => {
  let vs: Vscode;

  before(async () => {
    vs = await startVscode({ name: 'smoke', files: { 'README.md': '# sample\n' } });
  });

  after(async () => {
    await vs?.close();
  });

  test('the activity-bar icon opens the chat webview', async (t) => {
    const chat = await vs.openChat();
    await chat.locator('#messages').waitFor({ state: 'attached' });
    await chat.locator('#input').waitFor();
    t.diagnostic(`screenshot: ${await vs.screenshot('chat-open')}`);
  });

  test('the MCP Servers side bar holds the Tools, Resources, Prompts, Sessions and Chats views', async (t) => {
    await vs.showServers();
    const titles = (await vs.viewTitles()).map((t) => t.toLowerCase());
    assert.deepEqual(titles, ['tools', 'resources', 'prompts', 'sessions', 'chats']);
    t.diagnostic(`screenshot: ${await vs.screenshot('side-bar')}`);
  });

  test("a server's tooltip says who answers, in which protocol and over what", async (t) => {
    // Its own start: every bundled server up, so no row is redrawn under the pointer while the tooltip comes.
    for (const name of ['workspace', 'web', 'research', 'orchestrator']) await vs.waitForTreeItem('Tools', new RegExp(`${name}\\s*ready`), 60_000);
    const hover = vs.page.locator('.monaco-hover, .workbench-hover').filter({ hasText: 'MCP 2026-07-28' }).first();
    // A tooltip shows after the pointer rests on the row; a row redrawn meanwhile drops it: move away and rest again.
    for (let attempt = 1; ; attempt++) {
      await vs.page.mouse.move(0, 0);
      await (await vs.waitForTreeItem('Tools', /workspace\s*ready/)).hover();
      try {
        await hover.waitFor({ timeout: 10_000 });
        break;
      } catch (err) {
        if (attempt === 4) throw err;
      }
    }
    assert.match(await shownText(hover), /workspace \S+ · MCP 2026-07-28 \(stateless\) over stdio/);
    t.diagnostic(`screenshot: ${await vs.screenshot('server-tooltip')}`);
  });
});
