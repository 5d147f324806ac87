// MCP Apps in the real VS Code: @modelcontextprotocol/server-basic-vanillajs from npm over stdio. The model calls its
// get-time tool, and its view is drawn under the tool card in the double frame (the chat page frames the host's
// sandbox proxy, which frames the view): it gets the tool's result, sizes itself, and its own tool calls take the
// chat's approval path. Each step waits on what the page shows, never on time.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { chatRig } from './chat-rig';
import { outsideServer } from '../support/outside-servers';
import { appViewFrame } from '../vscode/harness';
import { shownText } from '../support/shown-text';

const BASIC = outsideServer('server-basic-vanillajs');
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;

function model(body: MessagesBody): Reply {
  const last = lastUserText(body);
  if (isToolResultTurn(body)) return { text: 'The time is shown above.' };
  if (/what time/.test(last)) return { toolUses: [{ name: 'basic__get-time', input: {} }] };
  return { text: `You said: ${last.slice(0, 400)}` };
}

describe('an MCP App view in the chat (server-basic-vanillajs over stdio)', () => {
  const rig = chatRig(
    'apps-basic',
    model,
    { 'a.txt': 'a\n' },
    {
      'mcpAgent.servers': { basic: { type: 'stdio', command: process.execPath, args: [BASIC, '--stdio'], env: { ELECTRON_RUN_AS_NODE: '1' } } },
    },
  );

  test('the model calls get-time: the view appears under the card, paints the result and sizes itself', async (t) => {
    await rig.vs.waitForTreeItem('Tools', /basic\s*ready/, 90_000);
    const chat = await rig.vs.openChat();
    await chat.locator('#input').fill('what time is it?');
    await chat.locator('#input').press('Enter');
    const approval = chat.locator('.approval[data-state="pending"]');
    await approval.waitFor();
    await approval.locator('button[data-decision="once"]').click();
    await chat.locator('.tool-card[data-status="done"]').waitFor();
    const view = chat.locator('.app-view[data-state="shown"]');
    await view.waitFor({ timeout: 60_000 });
    const app = appViewFrame(chat);
    const time = app.locator('#server-time');
    await time.filter({ hasText: ISO }).waitFor();
    const shown = await shownText(time);
    // The card's result and the view's text are the same call's.
    await chat.locator('.tool-card .tool-header').first().click();
    assert.ok((await shownText(chat.locator('.tool-card .tool-result').first())).includes(shown), 'the view got the result of this call');
    const height = await chat
      .locator('.app-view iframe')
      .first()
      .evaluate((f) => f.getBoundingClientRect().height);
    assert.ok(height > 120, `the frame took the height the view asked for (${height} px)`);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('basic-view')}`);

    // The view's own call of get-time goes through the chat's approval path, marked as the view's.
    await app.locator('#get-time-btn').click();
    const asked = chat.locator('.approval[data-state="pending"]');
    await asked.waitFor();
    assert.match(await shownText(asked), /Asked by the interactive view of basic, not by the model/);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('basic-view-asks')}`);
    await asked.locator('button[data-decision="once"]').click();
    await app.locator('#server-time').filter({ hasNotText: shown }).filter({ hasText: ISO }).waitFor();
  });

  test("the view's message is the view's: labelled in the chat, told to the model as the app's, never the person's", async (t) => {
    const chat = await rig.vs.openChat();
    const app = appViewFrame(chat);
    await app.locator('#message-text').fill('please summarise the time');
    await app.locator('#send-message-btn').click();
    const bubble = chat.locator('.msg.user.from-app');
    await bubble.waitFor();
    assert.match(await shownText(bubble), /Sent by the interactive view of basic\s+please summarise the time/);
    await chat.locator('.msg.assistant .markdown', { hasText: 'You said:' }).waitFor();
    const told = lastUserText(rig.api.requests.at(-1)!.body);
    assert.match(told, /sent by the app, not typed by the person/);
    assert.match(told, /please summarise the time$/);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('basic-view-message')}`);
  });

  test('a link the view asks to open opens only once the person agrees in a modal', async (t) => {
    const chat = await rig.vs.openChat();
    const app = appViewFrame(chat);
    const link = 'https://example.com/from-the-view';
    await app.locator('#link-url').fill(link);
    const opened: string[] = [];
    rig.vs.page.context().on('page', (p) => opened.push(p.url()));
    await app.locator('#open-link-btn').click();
    const dialog = rig.vs.page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    assert.match(await shownText(dialog), /The view of MCP server "basic" asks to open a link/);
    assert.ok((await shownText(dialog)).includes(link));
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('basic-view-link')}`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await app.locator('#open-link-btn').click();
    await dialog.waitFor();
    const popup = rig.vs.page.context().waitForEvent('page', { timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Open Link' }).click();
    // VS Code's own link protection may ask once more (a domain the person has not trusted): that is its question, answered too.
    const confirm = rig.vs.page.locator('.monaco-dialog-box', { hasText: /open the external website/i });
    const page = await Promise.race([
      popup,
      confirm.waitFor({ timeout: 30_000 }).then(async () => {
        await confirm.getByRole('button', { name: /^Open$/ }).click();
        return popup;
      }),
    ]);
    assert.equal(opened.length, 1, `one page opened, after the person agreed: ${opened.join(', ')}`);
    await page.close();
  });

  test('the chat in an editor tab draws the view too', async (t) => {
    await rig.vs.runCommand('MCP Agent: Open Chat in Editor');
    const frames = rig.vs.page.locator('iframe.webview.ready[src*="extensionId=mcp-agent.mcp-agent"]');
    await frames.nth(1).waitFor();
    const srcs = await frames.evaluateAll((els) => els.map((e) => (e as HTMLIFrameElement).src));
    const tab = frames
      .nth(srcs.findIndex((s) => !/purpose=webviewView/.test(s)))
      .contentFrame()
      .locator('#active-frame')
      .contentFrame();
    try {
      await tab.locator('.app-view[data-state="shown"]').first().waitFor({ timeout: 60_000 });
    } catch (err) {
      // Seen once in a full run on a loaded machine and not since: what the tab's views were doing, for next time.
      t.diagnostic(
        `pages: ${JSON.stringify(srcs)}; views: ${JSON.stringify(await tab.locator('.app-view').evaluateAll((els) => els.map((e) => e.outerHTML.slice(0, 400))))}`,
      );
      t.diagnostic(`screenshot: ${await rig.vs.screenshot('tab-view-missing')}`);
      throw err;
    }
    await appViewFrame(tab).locator('#server-time').filter({ hasText: ISO }).waitFor();
    await rig.vs.runCommand('View: Close Editor');
  });

  test('"Full screen" opens the view in an editor tab of its own, filling it, beside the one under the card', async (t) => {
    const chat = await rig.vs.openChat();
    // The tab's view is drawn from the call's own result (the view under the card has since asked for a newer time).
    const shown = /\d{4}-\d\d-\d\dT[\d:.]+Z/.exec(await shownText(chat.locator('.tool-card .tool-result').first()))![0];
    await chat.locator('.app-full-screen').first().click();
    // The tab's page is the webview that is not the side bar's view.
    const frames = rig.vs.page.locator('iframe.webview.ready[src*="extensionId=mcp-agent.mcp-agent"]');
    await frames.nth(1).waitFor();
    const srcs = await frames.evaluateAll((els) => els.map((e) => (e as HTMLIFrameElement).src));
    const tabIndex = srcs.findIndex((s) => !/purpose=webviewView/.test(s));
    const tab = frames.nth(tabIndex).contentFrame().locator('#active-frame').contentFrame();
    await tab.locator('.app-tab-title', { hasText: 'basic · get-time' }).waitFor();
    await tab.locator('.app-view[data-state="shown"]').waitFor({ timeout: 60_000 });
    const inTab = appViewFrame(tab);
    await inTab.locator('#server-time', { hasText: shown }).waitFor();
    const [frameHeight, tabHeight] = await tab.locator('.app-view iframe').evaluate((f) => [f.getBoundingClientRect().height, window.innerHeight]);
    assert.ok(frameHeight > tabHeight * 0.8, `the view fills the tab (${frameHeight} of ${tabHeight} px)`);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('basic-view-full-screen')}`);
  });

  test('a view that leaves the page is torn down: its proxy page is no longer served', async () => {
    const chat = await rig.vs.openChat();
    const src = await chat.locator('.app-view iframe').first().getAttribute('src');
    assert.ok(src);
    assert.equal((await fetch(src)).status, 200, 'served while the view is on the page');
    await rig.vs.runCommand('MCP Agent: New Chat');
    await chat.locator('.app-view').first().waitFor({ state: 'detached' });
    // The host releases the page when the view's unmount arrives: wait for that, then it is gone for good.
    for (let status = 200; status !== 404;) status = (await fetch(src)).status;
  });
});
