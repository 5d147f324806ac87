// Beside VS Code's own chat: MCP Agent's chat keeps an activity-bar container of its own (VS Code's Chat opens in
// the secondary side bar), Ctrl+Alt+M (not VS Code's Ctrl+Alt+I) brings it from the editor, and its empty state
// says which chat is which. Where VS Code has the stable MCP provider API (1.101 and later; the rig's "today"),
// its own "MCP: List Servers" lists the bundled servers MCP Agent offers it, and starts one.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { EXTENSION_ID, startVscode, type Vscode } from '../vscode/harness';
import { shownText } from '../support/shown-text';

/** The rig's name for the VS Code it started (scripts/code-server.mjs): 1.139 for "today", 1.100 otherwise. */
const TODAY = process.env.MCP_AGENT_VSCODE === 'today';
const OFFERED = ['MCP Agent: workspace', 'MCP Agent: web', 'MCP Agent: research'];

type Box = { x: number; y: number; width: number; height: number };

async function box(l: Locator): Promise<Box> {
  const b = await l.boundingBox();
  assert.ok(b, 'not on screen');
  return b;
}

/** Whether `a` is drawn within `b`'s columns. */
const within = (a: Box, b: Box): boolean => a.x >= b.x - 1 && a.x + a.width <= b.x + b.width + 1;

describe("MCP Agent beside VS Code's own chat", () => {
  let vs: Vscode;

  before(async () => {
    vs = await startVscode({ name: 'beside-vscode', files: { 'README.md': '# sample\n' } });
  });

  after(async () => {
    await vs?.close();
  });

  test('the chat has its own activity-bar container; nothing of MCP Agent is in the secondary side bar', async (t) => {
    await vs.openChat();
    await vs.activityIcon().waitFor();
    // A webview's frame is laid over its view from elsewhere in the page: where it is drawn says which bar holds it.
    const chat = await box(vs.page.locator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"]`).first());
    assert.ok(within(chat, await box(vs.page.locator('.part.sidebar'))), 'the chat is drawn in the primary side bar');
    const aux = vs.page.locator('.part.auxiliarybar');
    if (await aux.isVisible()) assert.ok(!within(chat, await box(aux)), 'the chat is drawn in the secondary side bar');
    assert.equal(await aux.getByRole('tab', { name: /MCP Agent|MCP Servers/ }).count(), 0, 'a container of ours is in the secondary side bar');
    t.diagnostic(`screenshot: ${await vs.screenshot('placement')}`);
  });

  test('Ctrl+Alt+M brings the chat from the editor, and the empty chat says which chat is which', async (t) => {
    // The side bar closed and the focus in the workbench, not in the chat: the key must bring the chat back.
    await vs.runCommand('View: Close Primary Side Bar');
    await vs.page.locator('.part.sidebar').waitFor({ state: 'hidden' });
    await vs.page.keyboard.press('Control+Alt+KeyM');
    await vs.page.locator('.part.sidebar').waitFor();
    assert.equal(await vs.activityIcon().getAttribute('aria-selected'), 'true');
    const which = vs.chatFrame().locator('#welcome-which');
    await which.waitFor();
    assert.match(
      await shownText(which),
      /^This is MCP Agent's chat: Claude, on your own key or gateway\. VS Code's own Chat \(Ctrl\+Alt\+I\) is a separate agent/,
    );
    t.diagnostic(`screenshot: ${await vs.screenshot('first-run-line')}`);
  });

  test(`MCP: List Servers ${TODAY ? 'lists the bundled servers offered to VS Code, and starts one' : 'lists none of MCP Agent (no stable API)'}`, async (t) => {
    const rows = vs.page.locator('.quick-input-widget .monaco-list-row');
    await vs.runCommand('MCP: List Servers');
    await rows.first().waitFor();
    if (!TODAY) {
      assert.deepEqual(
        (await rows.allInnerTexts()).filter((r) => r.includes('MCP Agent:')),
        [],
      );
      await vs.page.keyboard.press('Escape');
      return;
    }
    // VS Code activates the extension for its collection and lists what the provider gives.
    for (const label of OFFERED) await rows.filter({ hasText: label }).first().waitFor();
    await rows.filter({ hasText: OFFERED[0] }).first().click();
    await rows.filter({ hasText: 'Start Server' }).first().click();
    // VS Code shows the server's log as it starts it: its tools listed is the server answering VS Code's host. The
    // log is an editor, whose spaces are no-break spaces.
    await vs.page
      .locator('.part.panel')
      .getByText(/Discovered\s\d+\stools/)
      .waitFor({ timeout: 90_000 })
      .catch(async (err: unknown) => {
        t.diagnostic(`screenshot: ${await vs.screenshot('list-servers-failed')}`);
        throw err;
      });
    t.diagnostic(`screenshot: ${await vs.screenshot('list-servers')}`);
    await vs.page.keyboard.press('Escape');
  });
});
