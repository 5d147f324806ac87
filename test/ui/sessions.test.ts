// The Sessions view: start a sub-agent session, watch it finish, read its transcript, delete it; undo a run's changes.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chatRig } from './chat-rig';
import { shownText } from '../support/shown-text';
import { isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';

/** The sub-agent rewrites the README when asked to, and only summarises it otherwise. */
function subAgent(body: MessagesBody): Reply {
  if (!/Rewrite the README/.test(lastUserText(body) + JSON.stringify(body.messages[0]?.content ?? '')))
    return { text: 'The README says hello. **Summary done.**' };
  if (isToolResultTurn(body)) return { text: 'Rewrote README.md.' };
  return { text: 'Rewriting.', toolUses: [{ name: 'workspace__write_file', input: { path: 'README.md', content: '# Rewritten\n' } }] };
}

describe('orchestrated sessions in a real VS Code', () => {
  // The sub-agent's write is not asked about: what is tested is the view's side of the run.
  const rig = chatRig('sessions', subAgent, { 'README.md': '# Hello\n' }, {}, { env: { MCP_AGENT_ORCHESTRATOR_APPROVE: 'all' } });

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
    // Its transcript's tab goes with it, rather than staying open to say it cannot be read.
    await rig.vs.page.locator('.tab', { hasText: 'readme-summary.md' }).waitFor({ state: 'detached' });
  });

  test('Restore Files to Before This Run puts back what a run started from the view changed', async (t) => {
    const readme = join(rig.vs.workspace, 'README.md');
    await rig.vs.runCommand('MCP Agent: Start Agent Session…');
    await pick('general');
    await type('Session name', 'readme-edit');
    await type('Task for general (readme-edit)', 'Rewrite the README');
    await rig.vs.waitForTreeItem('Sessions', /readme-edit\s*general · done/, 20_000).catch(async (err: unknown) => {
      t.diagnostic(JSON.stringify(await rig.vs.treeItems('Sessions')));
      t.diagnostic(`screenshot: ${await rig.vs.screenshot('session-edit-failed')}`);
      throw err;
    });
    assert.equal(readFileSync(readme, 'utf8'), '# Rewritten\n', 'the sub-agent wrote');

    await rig.vs.runCommand('MCP Agent: Restore Files to Before This Run…');
    await pick('readme-edit');
    const dialog = rig.vs.page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    const said = await shownText(dialog);
    assert.match(said, /Restore 1 file to before this run\?/);
    assert.match(said, /README\.md/);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('session-restore')}`);
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await rig.vs.page.locator('.notifications-toasts', { hasText: 'Restored 1 file to before the run' }).waitFor();
    assert.equal(readFileSync(readme, 'utf8'), '# Hello\n');
  });
});
