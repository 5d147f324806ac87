// Reviewable edits in a real VS Code: a file change waits in VS Code's diff editor, Accept there
// writes it, and a file changed on disk after the review is never overwritten.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { chatRig } from './chat-rig';
import { shownText } from '../support/shown-text';

function model(body: MessagesBody): Reply {
  if (isToolResultTurn(body)) return { text: `Tool said: ${lastUserText(body).slice(0, 300)}` };
  if (/where/.test(lastUserText(body))) return { text: 'The list is in `notes.md:2`, not in `../outside.md`.' };
  const m = /write (\S+)/.exec(lastUserText(body));
  if (!m) return { text: 'ok' };
  return { toolUses: [{ name: 'workspace__write_file', input: { path: m[1], content: 'Shopping\n- tea\n' } }] };
}

describe('reviewable edits in a real VS Code', () => {
  const rig = chatRig('edit-review', model, { 'notes.md': 'Shopping\n- milk\n- bread\n', 'list.md': 'Shopping\n- milk\n- bread\n' });

  const acceptInEditor = () => rig.vs.page.locator('.editor-actions .action-label[aria-label^="Accept Change"]');

  test('an overwrite is flagged on the card and reviewed as a diff; Accept in the editor writes it', async (t) => {
    // The trees have a side bar of their own: wait there, then show the chat.
    await rig.vs.waitForTreeItem('Tools', /workspace\s*ready/);
    const chat = await rig.vs.openChat();
    await chat.locator('#input').fill('please write notes.md');
    await chat.locator('#input').press('Enter');
    const card = chat.locator('.approval[data-state="pending"]');
    await card.waitFor();
    assert.match(await shownText(card), /Overwrites all 3 lines of notes\.md \(2 lines after\)/);
    const tab = rig.vs.page.locator('.tabs-container .tab', { hasText: 'notes.md (proposed change)' });
    await tab.waitFor();
    await rig.vs.page.locator('.monaco-diff-editor .modified .view-line', { hasText: '- tea' }).waitFor();
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('diff-review')}`);
    await acceptInEditor().click();
    await chat.locator('.approval[data-state="once"]').waitFor();
    await chat.locator('.msg.assistant .markdown', { hasText: 'overwritten' }).waitFor();
    assert.equal(readFileSync(join(rig.vs.workspace, 'notes.md'), 'utf8'), 'Shopping\n- tea\n');
    await tab.waitFor({ state: 'detached' });
  });

  test('a file created by someone else after the review is not overwritten', async () => {
    const chat = await rig.vs.openChat();
    await chat.locator('#input').fill('now write fresh.md');
    await chat.locator('#input').press('Enter');
    await rig.vs.page.locator('.tabs-container .tab', { hasText: 'fresh.md (new file)' }).waitFor();
    writeFileSync(join(rig.vs.workspace, 'fresh.md'), 'written by the person meanwhile\n');
    await chat.locator('.approval[data-state="pending"] button[data-decision="once"]').click();
    await chat.locator('.msg.assistant .markdown', { hasText: 'created by someone else after the person reviewed' }).waitFor();
    assert.equal(readFileSync(join(rig.vs.workspace, 'fresh.md'), 'utf8'), 'written by the person meanwhile\n');
  });

  test('"Restore files to before this turn" undoes a turn after the person confirms, and leaves what the person wrote', async (t) => {
    // Its own turn and files: nothing here depends on the tests before it.
    const chat = await rig.vs.openChat();
    const earlier = await chat.locator('.checkpoint').count();
    await chat.locator('#input').fill('please write list.md');
    await chat.locator('#input').press('Enter');
    await rig.vs.page.locator('.tabs-container .tab', { hasText: 'list.md (proposed change)' }).waitFor();
    await acceptInEditor().click();
    // This turn's checkpoint: the one after those of earlier turns.
    const checkpoint = chat.locator('.checkpoint').nth(earlier);
    await checkpoint.waitFor();
    assert.equal(readFileSync(join(rig.vs.workspace, 'list.md'), 'utf8'), 'Shopping\n- tea\n');
    writeFileSync(join(rig.vs.workspace, 'mine.md'), 'the person wrote this after the turn\n');
    assert.match(await shownText(checkpoint.locator('.checkpoint-files')), /Changed: list\.md/);
    await checkpoint.locator('.restore').click();
    const dialog = rig.vs.page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    assert.match(await shownText(dialog), /Restore 1 file to before this turn\?[\s\S]*list\.md/);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('restore-confirm')}`);
    await dialog.locator('.monaco-button', { hasText: 'Restore' }).click();
    await chat.locator('.notice', { hasText: 'Restored 1 file to before the turn: list.md.' }).waitFor();
    assert.equal(readFileSync(join(rig.vs.workspace, 'list.md'), 'utf8'), 'Shopping\n- milk\n- bread\n');
    assert.equal(
      readFileSync(join(rig.vs.workspace, 'mine.md'), 'utf8'),
      'the person wrote this after the turn\n',
      "the person's file is not the turn's to undo",
    );
  });

  test('a file named in an answer opens at its line; a path outside is no link', async () => {
    const chat = await rig.vs.openChat();
    await chat.locator('#input').fill('where is the list?');
    await chat.locator('#input').press('Enter');
    const link = chat.locator('.markdown .file-link', { hasText: 'notes.md:2' });
    await link.waitFor();
    assert.equal(await chat.locator('.markdown .file-link').count(), 1, '../outside.md stays plain code');
    await link.click();
    await rig.vs.page.locator('.tabs-container .tab.active', { hasText: /^notes\.md/ }).waitFor();
    await rig.vs.page.locator('.statusbar-item', { hasText: /Ln 2, Col 1/ }).waitFor();
  });
});
