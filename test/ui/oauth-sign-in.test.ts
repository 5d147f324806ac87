// Signing in to a remote MCP server in a real VS Code: a modal names the authorization server's host,
// the browser opens the authorization page (vscode.env.openExternal), its redirect reaches the extension's
// loopback listener and the server comes up; Sign Out of Server, from the server's menu in the Tools view,
// forgets the tokens and ends the session. The protected server is test/fakes/oauth-server.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpServerProcess } from '../integration/helpers/http-server-process';
import { startOAuthFake } from '../integration/helpers/oauth-harness';
import { startVscode, type Vscode } from '../vscode/harness';
import { shownText } from '../support/shown-text';

describe('an HTTP MCP server that asks to sign in', () => {
  let vs: Vscode;
  let server: HttpServerProcess;
  before(async () => {
    // On [::1]: code-server would send a browser's 127.0.0.1 address through its port proxy, losing the path.
    server = await startOAuthFake('--ipv6');
    vs = await startVscode({
      name: 'oauth-sign-in',
      settings: { 'mcpAgent.servers': { guarded: { type: 'http', url: server.url } } },
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
    });
  });
  after(async () => {
    await vs?.close();
    await server?.stop();
  });

  test('a modal names the host; Sign In opens the browser, the redirect comes back and the server is ready', async (t) => {
    const dialog = vs.page.locator('.monaco-dialog-box', { hasText: 'asks you to sign in' });
    await dialog.waitFor({ timeout: 60_000 });
    const text = await shownText(dialog);
    assert.match(text, new RegExp(`MCP server "guarded" asks you to sign in at \\[::1\\]:${server.port}\\.`));
    t.diagnostic(`screenshot: ${await vs.screenshot('sign-in-modal')}`);
    const opened = vs.page.context().waitForEvent('page', { timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Sign In' }).click();
    // VS Code may first ask whether to open an outside address.
    const confirm = vs.page.locator('.monaco-dialog-box', { hasText: /open the external website/i });
    const tab = await Promise.race([
      opened,
      confirm.waitFor({ timeout: 30_000 }).then(async () => {
        t.diagnostic(`screenshot: ${await vs.screenshot('open-external-confirm')}`);
        await confirm.getByRole('button', { name: /^Open$/ }).click();
        return opened;
      }),
    ]);
    t.diagnostic(`the browser opened ${tab.url()}`);
    try {
      await tab.waitForURL(/\/callback\?/, { timeout: 30_000 });
    } catch (err) {
      await tab.screenshot({ path: (await vs.screenshot('browser-tab')).replace('browser-tab', 'browser-tab-page') }).catch(() => undefined);
      throw new Error(
        `the browser tab stayed at ${tab.url()}: ${(
          await tab
            .locator('body')
            .innerText()
            .catch(() => '')
        ).slice(0, 500)}`,
        { cause: err },
      );
    }
    assert.match(await shownText(tab.locator('body')), /MCP Agent is signed in/);
    await tab.close();
    await vs.openChat();
    await vs.waitForTreeItem('Tools', /guarded\s*ready/, 60_000);
    t.diagnostic(`screenshot: ${await vs.screenshot('signed-in')}`);
  });

  test('Sign Out of Server, from the server row menu, forgets the tokens and ends the session', async (t) => {
    const row = await vs.waitForTreeItem('Tools', /guarded\s*ready/);
    await vs.runContextMenuItem(row.locator('.label-name'), 'Sign Out of Server', async () => {
      t.diagnostic(`screenshot: ${await vs.screenshot('sign-out-menu')}`);
    });
    await vs.page.locator('.notifications-toasts', { hasText: 'signed out of "guarded"' }).waitFor({ timeout: 30_000 });
    const failed = await vs.waitForTreeItem('Tools', /guarded\s*error/, 30_000);
    await failed.hover();
    t.diagnostic(`screenshot: ${await vs.screenshot('signed-out')}`);
  });
});
