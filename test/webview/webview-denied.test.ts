// A call the person denied is their decision, not a failure: its card and its approval are drawn calmly.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useChatPages } from '../fakes/webview-pages';
import { pendingApproval } from '../fakes/webview-conversation';
import { shownText } from '../support/shown-text';

const { openReady, screenshotPath } = useChatPages();

const DENIED = 'The person denied this tool call. Do not retry it; ask them what they want instead.';

describe('chat webview: a denied call', () => {
  test('has its own state: no red border, no error block, "denied" where the duration goes; the model\'s note one click away', async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({ type: 'event', event: { kind: 'user', id: 'u1', text: 'write the notes', attachments: [], at: 1 } });
    for (const event of pendingApproval) await chat.post({ type: 'event', event });
    await page.locator('.approval[data-call-id="c2"] button[data-decision="deny"]').click();
    await chat.post({ type: 'event', event: { kind: 'approval', callId: 'c2', decision: 'deny' } });
    const card = page.locator('.tool-card[data-call-id="c2"]');
    await page.waitForSelector('.tool-card[data-call-id="c2"][data-status="denied"]');
    await chat.post({ type: 'event', event: { kind: 'tool_result', callId: 'c2', isError: true, content: [{ type: 'text', text: DENIED }], durationMs: 0 } });
    await chat.post({ type: 'event', event: { kind: 'assistant_text', turnId: 't2', blockId: 'b', text: 'Understood: nothing was written.' } });
    await chat.post({ type: 'event', event: { kind: 'turn_end', turnId: 't2', status: 'done' } });
    await page.locator('.turn-end[data-status="done"]').waitFor({ state: 'attached' });

    assert.equal(await card.getAttribute('data-status'), 'denied');
    assert.equal(await card.locator('.status .status-text').textContent(), 'denied');
    assert.equal(await shownText(card.locator('.duration')), 'denied');
    assert.equal(await card.locator('.tool-body').isHidden(), true, 'a decision does not open itself like an error');
    assert.equal(await card.locator('.is-error').count(), 0);
    const colours = await page.evaluate(() => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--vscode-errorForeground)';
      document.body.append(probe);
      const error = getComputedStyle(probe).color;
      probe.style.color = 'var(--chat-border)';
      const plainBorder = getComputedStyle(probe).color;
      probe.remove();
      const card = document.querySelector('.tool-card[data-call-id="c2"]')!;
      const outcome = document.querySelector('.approval[data-call-id="c2"] .approval-outcome')!;
      return { error, plainBorder, border: getComputedStyle(card).borderTopColor, outcome: getComputedStyle(outcome).color };
    });
    assert.equal(colours.border, colours.plainBorder, 'the card is framed like any finished card, not as an error');
    assert.notEqual(colours.outcome, colours.error, '"Denied" is not written in the error colour');
    await card.locator('.tool-header').click();
    assert.match(await shownText(card.locator('.tool-result')), /Not run: denied[\s\S]*Do not retry it/i);
    await page.screenshot({ path: screenshotPath('denied-call') });

    // The same card replayed (a reload) looks the same.
    await chat.post({
      type: 'replay',
      events: [
        { kind: 'user', id: 'u1', text: 'write the notes', attachments: [], at: 1 },
        ...pendingApproval,
        { kind: 'approval', callId: 'c2', decision: 'deny' },
        { kind: 'tool_result', callId: 'c2', isError: true, content: [{ type: 'text', text: DENIED }], durationMs: 0 },
      ],
    });
    await page.waitForSelector('.tool-card[data-call-id="c2"][data-status="denied"]');
  });

  test('a call that failed on its own is still an error', async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({ type: 'event', event: { kind: 'tool_call', turnId: 't', callId: 'f', server: 'workspace', tool: 'write_file', input: { path: 'x' } } });
    await chat.post({
      type: 'event',
      event: { kind: 'tool_result', callId: 'f', isError: true, content: [{ type: 'text', text: 'disk full' }], durationMs: 4 },
    });
    await page.waitForSelector('.tool-card[data-call-id="f"][data-status="error"]');
    assert.equal(await shownText(page.locator('.tool-card[data-call-id="f"] .tool-pre.is-error')), 'disk full');
  });
});
