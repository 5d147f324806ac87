// The chat in an editor tab: the same chat as the side bar, both live, with room for wide content.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { chatRig } from './chat-rig';

const WIDE = [
  '| Title | Author | Year | Genre | Pages | Publisher |',
  '| --- | --- | --- | --- | --- | --- |',
  '| The Left Hand of Darkness | Ursula K. Le Guin | 1969 | Science Fiction | 304 | Ace Books |',
].join('\n');
const reply = (body: MessagesBody): Reply => ({ text: `Here is the table for "${lastUserText(body)}":\n\n${WIDE}` });

describe('the chat in an editor tab', () => {
  const rig = chatRig('editor-tab', reply);

  test('opens from the chat view, shows the same chat as the side bar, and both follow a turn sent from either', async (t) => {
    const side = await rig.vs.openChat();
    await side.locator('#input').fill('first, from the side bar');
    await side.locator('#input').press('Enter');
    await side.locator('.markdown', { hasText: 'first, from the side bar' }).waitFor();

    await rig.vs.runCommand('MCP Agent: Open Chat in Editor');
    const frames = rig.vs.page.locator('iframe.webview.ready[src*="extensionId=mcp-agent.mcp-agent"]');
    await frames.nth(1).waitFor();
    const srcs = await frames.evaluateAll((els) => els.map((e) => (e as HTMLIFrameElement).src));
    const editorIndex = srcs.findIndex((s) => !/purpose=webviewView/.test(s));
    assert.ok(editorIndex >= 0, srcs.join('\n'));
    const tab = rig.vs.page.frameLocator('iframe.webview.ready[src*="extensionId=mcp-agent.mcp-agent"]').nth(editorIndex).frameLocator('#active-frame');
    await tab.locator('.msg.user', { hasText: 'first, from the side bar' }).waitFor();

    await tab.locator('#input').fill('second, from the editor tab');
    await tab.locator('#input').press('Enter');
    await tab.locator('.markdown', { hasText: 'second, from the editor tab' }).waitFor();
    const sideFrame = rig.vs.page
      .frameLocator('iframe.webview.ready[src*="extensionId=mcp-agent.mcp-agent"]')
      .nth(editorIndex === 0 ? 1 : 0)
      .frameLocator('#active-frame');
    await sideFrame.locator('.markdown', { hasText: 'second, from the editor tab' }).waitFor();
    const tableWidth = await tab
      .locator('.markdown table')
      .last()
      .evaluate((el) => el.getBoundingClientRect().width);
    assert.ok(tableWidth > 600, `the table has room in the tab (${tableWidth} px)`);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('chat-in-editor')}`);
  });
});
