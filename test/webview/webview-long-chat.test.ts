// The chat webview in headless Chromium opening a long saved chat: each event is handled without searching the
// whole transcript (which made replaying 1,000 messages quadratic), and the end of each turn still settles
// its own cards: running ones marked unfinished, pending approvals expired, the newest failure's button kept.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatEvent } from '../../src/shared/protocol';
import { useChatPages } from '../fakes/webview-pages';

const { openReady } = useChatPages();

function longChat(turns: number): ChatEvent[] {
  const events: ChatEvent[] = [];
  for (let i = 0; i < turns; i++) {
    const turnId = `t${i}`;
    events.push({ kind: 'user', id: `u${i}`, text: `Question ${i}`, attachments: [], at: i });
    events.push({ kind: 'tool_call', turnId, callId: `c${i}`, server: 'workspace', tool: 'read_file', input: { path: `${i}.md` } });
    if (i % 2 === 0) events.push({ kind: 'tool_result', callId: `c${i}`, isError: false, content: [{ type: 'text', text: 'ok' }], durationMs: 3 });
    events.push({ kind: 'assistant_text', turnId, blockId: `b${i}`, text: `Answer **${i}**.` });
    events.push({
      kind: 'turn_end',
      turnId,
      status: i === turns - 1 ? 'error' : 'done',
      ...(i === turns - 1 ? { error: 'overloaded', action: 'retry' as const } : {}),
    });
  }
  return events;
}

describe('chat webview: a long saved chat', () => {
  test('replaying 300 turns searches the whole transcript a bounded number of times, and each turn end settles its own cards', async () => {
    const chat = await openReady();
    const { page } = chat;
    await page.evaluate(() => {
      const messages = document.getElementById('messages')!;
      const original = Element.prototype.querySelectorAll;
      (window as unknown as { __wholeScans: number }).__wholeScans = 0;
      Element.prototype.querySelectorAll = function (this: Element, selectors: string) {
        if (this === messages) (window as unknown as { __wholeScans: number }).__wholeScans++;
        return original.call(this, selectors);
      } as typeof Element.prototype.querySelectorAll;
    });
    const events = longChat(300);
    await chat.post({ type: 'replay', events });
    await page.locator('.markdown[data-block-id="b299"]').waitFor();
    const scans = await page.evaluate(() => (window as unknown as { __wholeScans: number }).__wholeScans);
    assert.ok(scans < 20, `${scans} searches of the whole transcript for ${events.length} events`);
    // Odd turns' tool calls never got a result: their turn's end marked them, and only them.
    assert.equal(await page.locator('.tool-card[data-status="error"]').count(), 150);
    assert.equal(await page.locator('.tool-card[data-status="done"]').count(), 150);
    assert.equal(await page.locator('.tool-card[data-call-id="c1"][data-status="error"]').count(), 1);
    assert.equal(await page.locator('button[data-action="retry"]').count(), 1);
  });
});
