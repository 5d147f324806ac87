// The Sessions view: start a sub-agent session, watch it finish, read its transcript, delete it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chatRig } from './chat-rig';
import { shownText } from '../support/shown-text';

describe('orchestrated sessions in a real VS Code', () => {
  const rig = chatRig('sessions', () => ({ text: 'The README says hello. **Summary done.**' }), { 'README.md': '# Hello\n' });

  async function pick(label: string): Promise<void> {
    const row = rig.vs.page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first();
    await row.waitFor();
    await row.click();
  }

  /** Answers the input box titled `title` (waiting for it: the box before it may still be on screen). */
  async function type(title: string, text: string): Promise<void> {
    await rig.vs.page.locator('.quick-input-widget .quick-input-title', { hasText: title }).waitFor();
    const input = rig.vs.page.locator('.quick-input-widget .quick-input-box input');
    await input.fill(text);
    await input.press('Enter');
  }

  test('Start Session runs a sub-agent; the view shows it done with its tokens; the transcript opens read-only; Delete asks first', async (t) => {
    await rig.vs.openChat();
    await rig.vs.expandView('Sessions');
    await rig.vs.page.locator('.part.sidebar .welcome-view-content', { hasText: 'No agent sessions yet' }).waitFor();
    await rig.vs.runCommand('MCP Agent: Start Agent Session…');
    await pick('general');
    await type('Session name', 'readme-summary');
    await type('Task for general (readme-summary)', 'Summarise the README');
    const row = await rig.vs.waitForTreeItem('Sessions', /readme-summary\s*general · done/, 20_000).catch(async (err: unknown) => {
      t.diagnostic(JSON.stringify(await rig.vs.treeItems('Sessions')));
      t.diagnostic(`screenshot: ${await rig.vs.screenshot('session-failed')}`);
      throw err;
    });
    assert.match(await shownText(row), /tokens/);
    await rig.vs.page.locator('.notifications-toasts', { hasText: 'session readme-summary finished its turn' }).waitFor();
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('session-done')}`);

    await row.click();
    const editor = rig.vs.page.locator('.editor-instance .view-lines');
    await editor.filter({ hasText: 'Summary done.' }).waitFor();
    assert.match(await shownText(rig.vs.page.locator('.tab.active')), /readme-summary\.md/);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('session-transcript')}`);

    await rig.vs.runCommand('MCP Agent: Delete Agent Session…');
    await pick('readme-summary');
    const dialog = rig.vs.page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    assert.match(await shownText(dialog), /Delete the session readme-summary\?/);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await rig.vs.page.locator('.part.sidebar .welcome-view-content', { hasText: 'No agent sessions yet' }).waitFor();
  });
});
