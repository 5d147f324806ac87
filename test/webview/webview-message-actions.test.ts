// What a person can do with messages: edit one of theirs and resend from there, regenerate an answer, copy an
// answer as Markdown. The page asks the host (requests), which may refuse and say why, or the person may cancel.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatEvent } from '../../src/common/protocol';
import { useChatPages } from '../fakes/webview-pages';
import { readyState } from '../fakes/webview-conversation';
import { shownText } from '../support/shown-text';

const { openReady, screenshotPath } = useChatPages();

const chat3: ChatEvent[] = [
  { kind: 'user', id: 'u1', text: 'List the books.', attachments: ['data.db'], at: 1, span: { from: 0, to: 1 } },
  { kind: 'assistant_text', turnId: 't1', blockId: 'a', text: 'Here are **two**:' },
  { kind: 'tool_call', turnId: 't1', callId: 'c', server: 'workspace', tool: 'query_database', input: {} },
  { kind: 'tool_result', callId: 'c', isError: false, content: [{ type: 'text', text: '[]' }], durationMs: 3 },
  { kind: 'assistant_text', turnId: 't1', blockId: 'b', text: '- Dune\n- Neuromancer' },
  { kind: 'turn_end', turnId: 't1', status: 'done' },
  {
    kind: 'user',
    id: 'u2',
    text: '/prompt notes/summary',
    attachments: [],
    at: 2,
    span: { from: 4, to: 5 },
    prompt: { server: 'notes', name: 'summary', messages: [{ role: 'user', text: 'Summarise.' }] },
  },
  { kind: 'assistant_text', turnId: 't2', blockId: 'c', text: 'A summary.' },
  { kind: 'turn_end', turnId: 't2', status: 'done' },
  // Saved before messages could be gone back to: Copy only.
  { kind: 'user', id: 'u3', text: 'old', attachments: [], at: 3 },
  { kind: 'assistant_text', turnId: 't3', blockId: 'd', text: 'old answer' },
  { kind: 'turn_end', turnId: 't3', status: 'done' },
  // Its start summarised away: its answer can be asked for again, the message not edited.
  { kind: 'user', id: 'u4', text: 'kept after a summary', attachments: [], at: 4, span: { to: 1 } },
  { kind: 'turn_end', turnId: 't4', status: 'error', error: 'overloaded' },
];

describe('chat webview: message actions', () => {
  test("which messages offer what: Edit on the person's (not a prompt, not an old chat's), Copy and Regenerate on answers", async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({ type: 'replay', events: chat3 });
    await page.locator('.turn-end[data-status="error"]').waitFor();
    assert.deepEqual(await page.locator('.user-actions').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.for)), ['u1']);
    const answers = page.locator('.msg.assistant');
    const offered = await answers.evaluateAll((turns) =>
      turns.map((t) => [...t.querySelectorAll('.answer-actions button')].map((b) => b.getAttribute('aria-label'))),
    );
    assert.deepEqual(offered, [
      ['Copy as Markdown', 'Regenerate this answer'],
      ['Copy as Markdown', 'Regenerate this answer'],
      ['Copy as Markdown'],
      ['Regenerate this answer'],
    ]);
    await page.locator('.msg.user[data-id="u1"]').hover();
    await page.screenshot({ path: screenshotPath('message-actions') });
  });

  test('Copy gives the answer as the model wrote it: every text block of the turn, in order, as Markdown', async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({ type: 'replay', events: chat3 });
    await page.locator('.msg.assistant[data-turn-id="t1"] .copy-answer').click();
    const [copied] = await chat.waitForPosted('copy');
    assert.deepEqual(copied, { type: 'copy', text: 'Here are **two**:\n\n- Dune\n- Neuromancer' });
    await page.locator('.msg.assistant[data-turn-id="t1"] .copy-answer.copied').waitFor();
  });

  test('Edit opens the message in place; Escape puts it back (and stops no turn); Enter asks the host, which may refuse or be told no', async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({ type: 'replay', events: chat3 });
    const bubble = page.locator('.msg.user[data-id="u1"]');
    await page.locator('.user-actions[data-for="u1"] .edit-message').click();
    const box = bubble.locator('textarea.edit-input');
    assert.equal(await box.inputValue(), 'List the books.');
    assert.equal(await page.evaluate(() => document.activeElement?.className), 'edit-input');
    assert.equal(await shownText(bubble.locator('.attachment-chip')), 'data.db', 'the attachments stay with it');
    await box.press('Escape');
    await bubble.locator('.user-text', { hasText: 'List the books.' }).waitFor();
    assert.equal(
      (await chat.posted()).some((m) => m.type === 'stop'),
      false,
    );

    await page.locator('.user-actions[data-for="u1"] .edit-message').click();
    await box.fill('List the fantasy books.');
    await page.screenshot({ path: screenshotPath('message-editing') });
    await box.press('Enter');
    assert.deepEqual(await chat.answerRequest('editMessage', { done: false, why: 'A turn is still running: stop it first.' }), {
      id: 'u1',
      text: 'List the fantasy books.',
    });
    await bubble.locator('.edit-why', { hasText: 'still running' }).waitFor();
    assert.equal(await box.isEnabled(), true, 'the text is still there to send again');

    await bubble.locator('.edit-send').click();
    await chat.answerRequest('editMessage', { done: false }, (p) => p.text === 'List the fantasy books.');
    await page.waitForFunction(() => !(document.querySelector('.edit-input') as HTMLTextAreaElement).disabled);
    assert.equal(await shownText(bubble.locator('.edit-why')), '', "the person said no to the host's question: nothing to explain");

    await box.press('Enter');
    await chat.answerRequest('editMessage', { done: true }, (p) => p.text === 'List the fantasy books.');
    // The host then sends the chat as it now is, and the new message.
    await chat.post({ type: 'replay', events: [] });
    await chat.post({
      type: 'event',
      event: { kind: 'user', id: 'u5', text: 'List the fantasy books.', attachments: ['data.db'], at: 5, span: { from: 0, to: 1 } },
    });
    await page.locator('.msg.user[data-id="u5"]').waitFor();
    assert.equal(await page.locator('.edit-input').count(), 0);
  });

  test('Regenerate asks the host; a refusal is said beside the button, which works again', async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({ type: 'replay', events: chat3 });
    const again = page.locator('.msg.assistant[data-turn-id="t1"] .regenerate');
    await again.click();
    assert.deepEqual(await chat.answerRequest('regenerate', { done: false, why: 'No Anthropic API key is set.' }), { id: 'u1' });
    await page.locator('.msg.assistant[data-turn-id="t1"] .msg-action-note', { hasText: 'No Anthropic API key' }).waitFor();
    assert.equal(await again.isEnabled(), true);
  });

  test('while a turn runs, Edit and Regenerate are not offered; Copy is', async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({ type: 'replay', events: chat3 });
    await chat.post({ type: 'state', state: { ...readyState, busy: true } });
    await page.locator('.regenerate').first().waitFor({ state: 'hidden' });
    assert.equal(await page.locator('.edit-message').first().isHidden(), true);
    assert.equal(await page.locator('.copy-answer').first().isVisible(), true);
    await chat.post({ type: 'state', state: readyState });
    await page.locator('.regenerate').first().waitFor();
  });
});
