// Reviewable edits in a real VS Code: a file change waits in VS Code's diff editor, Accept there
// writes it, and a file changed on disk after the review is never overwritten.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { startVscode, type Vscode } from '../vscode/harness';

function model(body: MessagesBody): Reply {
  if (isToolResultTurn(body)) return { text: `Tool said: ${lastUserText(body).slice(0, 300)}` };
  const m = /write (\S+)/.exec(lastUserText(body));
  if (!m) return { text: 'ok' };
  return { toolUses: [{ name: 'workspace__write_file', input: { path: m[1], content: 'Shopping\n- tea\n' } }] };
}

describe('reviewable edits in a real VS Code', () => {
  const api = new FakeAnthropicApi(model);
  let vs: Vscode;

  before(async () => {
    const url = await api.start();
    vs = await startVscode({
      name: 'edit-review',
      files: { 'notes.md': 'Shopping\n- milk\n- bread\n' },
      settings: { 'mcpAgent.apiBaseUrl': url, 'mcpAgent.model': 'claude-test' },
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
    });
  });

  after(async () => {
    await vs?.close();
    await api.stop();
  });

  const acceptInEditor = () => vs.page.locator('.editor-actions .action-label[aria-label^="Accept Change"]');

  test('an overwrite is flagged on the card and reviewed as a diff; Accept in the editor writes it', async (t) => {
    const chat = await vs.openChat();
    await vs.waitForTreeItem('Tools', /workspace\s*ready/);
    await chat.locator('#input').fill('please write notes.md');
    await chat.locator('#input').press('Enter');
    const card = chat.locator('.approval[data-state="pending"]');
    await card.waitFor();
    assert.match(await card.innerText(), /Overwrites all 3 lines of notes\.md \(2 lines after\)/);
    const tab = vs.page.locator('.tabs-container .tab', { hasText: 'notes.md (proposed change)' });
    await tab.waitFor();
    await vs.page.locator('.monaco-diff-editor .modified .view-line', { hasText: '- tea' }).waitFor();
    t.diagnostic(`screenshot: ${await vs.screenshot('diff-review')}`);
    await acceptInEditor().click();
    await chat.locator('.approval[data-state="once"]').waitFor();
    await chat.locator('.msg.assistant .markdown', { hasText: 'overwritten' }).waitFor();
    assert.equal(readFileSync(join(vs.workspace, 'notes.md'), 'utf8'), 'Shopping\n- tea\n');
    await tab.waitFor({ state: 'detached' });
  });

  test('a file created by someone else after the review is not overwritten', async () => {
    const chat = vs.chatFrame();
    await chat.locator('#input').fill('now write fresh.md');
    await chat.locator('#input').press('Enter');
    await vs.page.locator('.tabs-container .tab', { hasText: 'fresh.md (new file)' }).waitFor();
    writeFileSync(join(vs.workspace, 'fresh.md'), 'written by the person meanwhile\n');
    await chat.locator('.approval[data-state="pending"] button[data-decision="once"]').click();
    await chat.locator('.msg.assistant .markdown', { hasText: 'created by someone else after the person reviewed' }).waitFor();
    assert.equal(readFileSync(join(vs.workspace, 'fresh.md'), 'utf8'), 'written by the person meanwhile\n');
  });
});
