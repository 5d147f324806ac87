// The sign of life while a turn runs and nothing else shows it: what it waits for, for how long, and why.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HostMessage } from '../../src/common/protocol';
import { useChatPages } from '../fakes/webview-pages';
import { readyState } from '../fakes/webview-conversation';

const { openReady, screenshotPath } = useChatPages();

const activity = (a: Extract<HostMessage, { type: 'activity' }>['activity']): HostMessage => ({ type: 'activity', turnId: 't1', activity: a });

describe('chat webview: the working line', () => {
  test('from Enter to the first token it counts the wait; text streaming, a card or the end put it away', async () => {
    const chat = await openReady();
    const { page } = chat;
    const line = page.locator('.working');
    await chat.post({ type: 'event', event: { kind: 'user', id: 'u1', text: 'what is in data.db?', attachments: [], at: 1 } });
    assert.equal(await line.isVisible(), false, 'nothing runs yet');
    await chat.post({ type: 'state', state: { ...readyState, busy: true } });
    await line.getByText(/^Working… 0 s$/).waitFor();
    await chat.post(activity({ kind: 'request', attempt: 1, attempts: 3 }));
    await line.getByText(/^Waiting for the model… 0 s$/).waitFor();
    // The count goes on by itself while nothing arrives.
    await line.getByText(/^Waiting for the model… [1-9]\d* s$/).waitFor();
    await page.screenshot({ path: screenshotPath('working-waiting') });

    await chat.post({ type: 'delta', turnId: 't1', blockId: 'b1', text: 'Let me look' });
    await line.waitFor({ state: 'hidden' });
    await chat.post(activity({ kind: 'tool_input', tool: 'query_database' }));
    await line.getByText(/^Writing the call to query_database… 0 s$/).waitFor();
    await chat.post({ type: 'event', event: { kind: 'tool_call', turnId: 't1', callId: 'c1', server: 'workspace', tool: 'query_database', input: {} } });
    await line.waitFor({ state: 'hidden' });
    await chat.post(activity({ kind: 'thinking' }));
    await line.getByText(/^Thinking… 0 s$/).waitFor();
    await chat.post({ type: 'event', event: { kind: 'turn_end', turnId: 't1', status: 'done' } });
    await line.waitFor({ state: 'hidden' });
    await chat.post(activity({ kind: 'request', attempt: 1, attempts: 3 }));
    await line.waitFor({ state: 'visible' });
    await chat.post({ type: 'state', state: readyState });
    await line.waitFor({ state: 'hidden' });
    await chat.post(activity({ kind: 'request', attempt: 1, attempts: 3 }));
    assert.equal(await line.isVisible(), false, 'an activity after the turn ended is stale');
  });

  test('a retry after a 529 says why it waits, counts down to the next try, and is said to a screen reader', async () => {
    const chat = await openReady();
    const { page } = chat;
    const line = page.locator('.working');
    await chat.post({ type: 'state', state: { ...readyState, busy: true } });
    await chat.post(activity({ kind: 'request', attempt: 1, attempts: 3 }));
    await chat.post(activity({ kind: 'retry', reason: 'overloaded', status: 529, waitMs: 3000, attempt: 2, attempts: 3 }));
    await line.getByText('The API is overloaded; retrying in 3 s (try 2 of 3)').waitFor();
    assert.equal(await line.getAttribute('data-kind'), 'retry');
    assert.equal(await line.locator('.working-warning').isVisible(), true);
    assert.equal(await line.locator('.working-spinner').isVisible(), false, 'nothing runs while it waits');
    await page.screenshot({ path: screenshotPath('working-retry') });
    await page.locator('[role="status"].sr-only', { hasText: 'The API is overloaded; retrying in 3 s (try 2 of 3)' }).waitFor({ state: 'attached' });
    await line.getByText('The API is overloaded; retrying in 2 s (try 2 of 3)').waitFor();
    await chat.post(activity({ kind: 'request', attempt: 2, attempts: 3 }));
    await line.getByText('Waiting for the model… 0 s (try 2 of 3)').waitFor();
    await chat.post(activity({ kind: 'retry', reason: 'server_error', status: 503, waitMs: 1000, attempt: 3, attempts: 3 }));
    await line.getByText(/^The API failed \(503\); retrying (in 1 s|now) \(try 3 of 3\)$/).waitFor();
  });

  test('a page that loads while a turn runs shows "Working…" at once, and a replay of a finished chat shows nothing', async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({
      type: 'replay',
      events: [
        { kind: 'user', id: 'u1', text: 'hi', attachments: [], at: 1 },
        { kind: 'turn_end', turnId: 't', status: 'done' },
      ],
    });
    await page.locator('.msg.user').waitFor();
    assert.equal(await page.locator('.working').isVisible(), false);
    await chat.post({ type: 'state', state: { ...readyState, busy: true } });
    await page.locator('.working', { hasText: /^Working… \d+ s$/ }).waitFor();
  });
});
