// An MCP App view (server-basic-vanillajs over stdio) in VS Code's four theme kinds at the default 300 px side bar:
// the view is told the theme kind and given the workbench's colours as SEP-1865's style variables, fits the side
// bar's width, and is looked at in a screenshot. Reloading the window draws it again from the saved chat.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isToolResultTurn, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { chatRig, themeBlock } from './chat-rig';
import { outsideServer } from '../support/outside-servers';
import { appViewFrame } from '../vscode/harness';
import { shownText } from '../support/shown-text';

const BASIC = outsideServer('server-basic-vanillajs');
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;

const THEMES = [
  { setting: 'Default Light Modern', kind: 'light' },
  { setting: 'Default Dark Modern', kind: 'dark' },
  { setting: 'Default High Contrast', kind: 'dark' },
  { setting: 'Default High Contrast Light', kind: 'light' },
];

const model = (body: MessagesBody): Reply => (isToolResultTurn(body) ? { text: 'Done.' } : { toolUses: [{ name: 'basic__get-time', input: {} }] });

describe('an MCP App view, one window in each theme', () => {
  const rig = chatRig(
    'apps-themes',
    model,
    { 'a.txt': 'a\n' },
    {
      'workbench.colorTheme': THEMES[0]!.setting,
      'mcpAgent.servers': { basic: { type: 'stdio', command: process.execPath, args: [BASIC, '--stdio'], env: { ELECTRON_RUN_AS_NODE: '1' } } },
    },
  );
  for (const theme of THEMES) {
    describe(`an MCP App view in ${theme.setting}`, () => {
      themeBlock(rig, `apps-theme-${theme.setting.toLowerCase().replace(/ /g, '-')}`, theme.setting);

      test('the view follows the theme and fits the 300 px side bar', async (t) => {
        await rig.vs.waitForTreeItem('Tools', /basic\s*ready/, 90_000);
        const chat = await rig.vs.openChat();
        await chat.locator('#input').fill('what time is it?');
        await chat.locator('#input').press('Enter');
        await chat.locator('.approval[data-state="pending"] button[data-decision="once"]').click();
        await chat.locator('.app-view[data-state="shown"]').waitFor({ timeout: 60_000 });
        const app = appViewFrame(chat);
        await app.locator('#server-time').filter({ hasText: ISO }).waitFor();
        const html = app.locator('html');
        await html.and(app.locator(`html[data-theme="${theme.kind}"]`)).waitFor();
        const editorBackground = await chat.locator('body').evaluate((b) => getComputedStyle(b).getPropertyValue('--vscode-editor-background').trim());
        const viewBackground = await html.evaluate((el) => getComputedStyle(el).getPropertyValue('--color-background-primary').trim());
        assert.equal(viewBackground.toLowerCase(), editorBackground.toLowerCase(), 'the view has the workbench colour');
        const sidebar = await rig.vs.page.locator('.part.sidebar').evaluate((el) => el.getBoundingClientRect().width);
        const box = await chat.locator('.app-view').evaluate((el) => el.getBoundingClientRect().width);
        const overflow = await html.evaluate((el) => el.scrollWidth - el.clientWidth);
        t.diagnostic(`side bar ${sidebar} px, view ${box} px, horizontal overflow in the view ${overflow} px`);
        assert.ok(sidebar <= 310, `the default side bar (${sidebar} px)`);
        assert.ok(box < sidebar, 'the view fits the side bar');
        assert.ok(overflow <= 0, 'nothing in the view is cut at the side');
        t.diagnostic(`screenshot: ${await rig.vs.screenshot('view')}`);
      });

      if (theme.kind === 'light' && theme.setting.includes('Modern')) {
        test('reloading the window draws the view again from the saved chat, with the same result', async (t) => {
          const chat = rig.vs.chatFrame();
          const before = await shownText(appViewFrame(chat).locator('#server-time'));
          const calls = rig.api.requests.length;
          await rig.vs.reload();
          const again = await rig.vs.openChat().catch(async (err: unknown) => {
            t.diagnostic(`screenshot: ${await rig.vs.screenshot('reload-no-chat')}`);
            throw err;
          });
          await again
            .locator('.app-view[data-state="shown"]')
            .waitFor({ timeout: 60_000 })
            .catch(async (err: unknown) => {
              const box = await again
                .locator('.app-view')
                .first()
                .evaluate((el) => `${el.getAttribute('data-state')}: ${el.textContent ?? ''}`, undefined, { timeout: 5_000 })
                .catch(() => 'no view box');
              t.diagnostic(`the view after the reload: ${box}; screenshot: ${await rig.vs.screenshot('reload-no-view')}`);
              throw err;
            });
          await appViewFrame(again).locator('#server-time', { hasText: before }).waitFor();
          assert.equal(rig.api.requests.length, calls, 'nothing was asked of the model again');
          t.diagnostic(`screenshot: ${await rig.vs.screenshot('view-after-reload')}`);
        });
      }
    });
  }
});
