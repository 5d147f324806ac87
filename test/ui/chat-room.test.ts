// The chat has the room a chat needs: alone in its side bar at full height (VS Code's own chat and the agent
// extensions place theirs the same way), the trees in a side bar of their own one click away, and back.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EXTENSION_ID } from '../vscode/harness';
import { chatRig, themeBlock } from './chat-rig';

const THEMES = [
  { name: 'light', setting: 'Default Light Modern' },
  { name: 'high-contrast', setting: 'Default High Contrast' },
];

const ANSWER = 'Here is a long answer.\n\n' + Array.from({ length: 12 }, (_, i) => `${i + 1}. a point worth making`).join('\n');

describe("the chat's room, one window in each theme", () => {
  const rig = chatRig('chat-room', () => ({ text: ANSWER }), {}, { 'workbench.colorTheme': THEMES[0]!.setting });
  for (const theme of THEMES) {
    describe(`the chat's room (${theme.name})`, () => {
      themeBlock(rig, `chat-room-${theme.name}`, theme.setting);

      test('the chat fills its side bar alone; the trees are one click away, and the chat one click back, as it was', async (t) => {
        const { vs } = rig;
        const chat = await vs.openChat();
        await chat.locator('#input').fill('tell me more');
        await chat.locator('#input').press('Enter');
        await chat.locator('.msg.assistant .markdown', { hasText: 'a point worth making' }).waitFor();
        const bar = (await vs.page.locator('.part.sidebar').boundingBox())!;
        const webview = (await vs.page.locator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"]`).first().boundingBox())!;
        t.diagnostic(`side bar ${Math.round(bar.width)}×${Math.round(bar.height)} px, chat ${Math.round(webview.width)}×${Math.round(webview.height)} px`);
        assert.equal(Math.round(bar.width), 300, 'the default side bar');
        assert.ok(webview.height >= bar.height * 0.85, `the chat has the side bar's height (${webview.height} of ${bar.height} px)`);
        assert.equal(
          await vs.page.locator('.part.sidebar .pane-header .title', { hasText: /^(Tools|Resources|Prompts|Sessions|Chats)$/i }).count(),
          0,
          'no tree shares it',
        );
        t.diagnostic(`screenshot: ${await vs.screenshot('chat-alone')}`);

        // From the chat's title bar, one click.
        await vs.page.locator('.part.sidebar .title-actions .action-label[aria-label^="Show Servers, Tools and Chats"]').click();
        await vs.page.locator('.part.sidebar .pane-header .title', { hasText: /^Tools$/i }).waitFor();
        await vs.waitForTreeItem('Tools', /workspace\s*ready/);
        assert.deepEqual(
          (await vs.viewTitles()).map((s) => s.toLowerCase()),
          ['tools', 'resources', 'prompts', 'sessions', 'chats'],
        );
        t.diagnostic(`screenshot: ${await vs.screenshot('trees')}`);

        // And back with the activity-bar icon: the conversation is as it was.
        await vs.activityIcon().click();
        await chat.locator('.msg.assistant .markdown', { hasText: 'a point worth making' }).waitFor();
        assert.equal(await chat.locator('#input').isVisible(), true);
        // The other way to the trees: the MCP Servers icon.
        await vs.serversIcon().click();
        await vs.page.locator('.part.sidebar .pane-header .title', { hasText: /^Tools$/i }).waitFor();
      });
    });
  }
});
