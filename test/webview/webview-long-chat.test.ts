// The chat webview in headless Chromium opening a long saved chat: each event is handled without searching the
// whole transcript (which made replaying 1,000 messages quadratic), and the end of each turn still settles
// its own cards: running ones marked unfinished, pending approvals expired, the newest failure's button kept.
// A 1,000-message chat shows its newest messages first, without drawing the rest in the same task; the older
// ones come later without moving what the reader is looking at.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatEvent } from '../../src/common/protocol';
import type { Page } from 'playwright-core';
import { useChatPages } from '../fakes/webview-pages';

const { openReady } = useChatPages();

interface OpenProbe {
  /** What was on the page when the task that handled the replay ended. */
  first?: { messages: number; renders: number; newest: boolean; oldest: boolean };
}

/** Records, in the page, what the replay's own task drew. */
async function probeOpen(page: Page, newest: string, oldest: string): Promise<void> {
  await page.evaluate(
    ({ newest, oldest }) => {
      const probe: OpenProbe = {};
      (window as unknown as { __open: OpenProbe }).__open = probe;
      // Added after the chat's own listener, so it runs right after the chat handled the message, in the same task.
      window.addEventListener('message', (e: MessageEvent<{ type?: string }>) => {
        if (e.data?.type !== 'replay' || probe.first) return;
        probe.first = {
          messages: document.querySelectorAll('#messages > .msg').length,
          renders: (window as unknown as { __mcpAgentChat: { markdownRenders: number } }).__mcpAgentChat.markdownRenders,
          newest: document.querySelector(newest) !== null,
          oldest: document.querySelector(oldest) !== null,
        };
      });
    },
    { newest, oldest },
  );
}

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
    // The newest turns come first; the older ones follow on idle time (older-loader.ts).
    await page.locator('.markdown[data-block-id="b0"]').waitFor({ state: 'attached' });
    const scans = await page.evaluate(() => (window as unknown as { __wholeScans: number }).__wholeScans);
    assert.ok(scans < 20, `${scans} searches of the whole transcript for ${events.length} events`);
    // Odd turns' tool calls never got a result: their turn's end marked them, and only them.
    assert.equal(await page.locator('.tool-card[data-status="error"]').count(), 150);
    assert.equal(await page.locator('.tool-card[data-status="done"]').count(), 150);
    assert.equal(await page.locator('.tool-card[data-call-id="c1"][data-status="error"]').count(), 1);
    assert.equal(await page.locator('button[data-action="retry"]').count(), 1);
  });

  // The longest task while it opens is the bench's to measure (`npm run bench webview`): a loaded machine stretches it.
  test('a 1,000-message chat shows its newest message in the first task without drawing the rest', async () => {
    const chat = await openReady();
    const { page } = chat;
    await probeOpen(page, '.markdown[data-block-id="b499"]', '.markdown[data-block-id="b0"]');
    await chat.post({ type: 'replay', events: longChat(500) });
    await page.locator('.markdown[data-block-id="b0"]').waitFor({ state: 'attached' });
    const probe = await page.evaluate(() => (window as unknown as { __open: OpenProbe }).__open);
    assert.ok(probe.first, 'the replay was handled');
    assert.equal(probe.first.newest, true, 'the newest answer is on the page when the replay is handled');
    assert.equal(probe.first.oldest, false, 'the oldest is not drawn in the same task');
    assert.ok(probe.first.messages < 100, `${probe.first.messages} of 1,000 messages drawn in the first task`);
    assert.ok(probe.first.renders < 100, `${probe.first.renders} markdown renders in the first task`);
    // Later, every message is there, once, in order.
    const ids = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('#messages > .msg.user')].map((el) => el.dataset.id));
    assert.deepEqual(
      ids,
      Array.from({ length: 500 }, (_, i) => `u${i}`),
    );
    assert.equal(await page.locator('#messages > .msg.assistant').count(), 500);
    assert.equal(await page.locator('button[data-action="retry"]').count(), 1, "only the newest failure's Retry stays");
    // Opened at its end.
    assert.equal(await page.locator('.jump-latest').isHidden(), true);
  });

  test('older messages drawn while the reader looks further up do not move what they are reading', async () => {
    const chat = await openReady();
    const { page } = chat;
    // Watched from before the replay, so every batch of older messages is seen however fast or slow they come:
    // after each lands, the message at the top of the view is where it was at the last scroll or frame before it.
    await page.evaluate(() => {
      const scroller = document.getElementById('scroller')!;
      const messages = document.getElementById('messages')!;
      const rec = { prepends: 0, drift: [] as number[], last: undefined as { el: Element; top: number } | undefined };
      (window as unknown as { __keep: typeof rec }).__keep = rec;
      const topMessage = (): Element | undefined => {
        const box = scroller.getBoundingClientRect();
        const at = document.elementFromPoint(box.left + box.width / 2, box.top + 4);
        return at?.closest('#messages > *') ?? undefined;
      };
      const mark = (): void => {
        const el = topMessage();
        rec.last = el ? { el, top: el.getBoundingClientRect().top } : undefined;
      };
      scroller.addEventListener('scroll', mark);
      const frame = (): void => {
        mark();
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
      mark();
      new MutationObserver((records) => {
        if (!records.some((r) => r.addedNodes.length > 0 && r.nextSibling !== null)) return;
        rec.prepends++;
        if (rec.last) rec.drift.push(Math.abs(rec.last.el.getBoundingClientRect().top - rec.last.top));
        mark();
      }).observe(messages, { childList: true });
    });
    await chat.post({ type: 'replay', events: longChat(800) });
    await page.locator('.markdown[data-block-id="b799"]').waitFor();
    await page.locator('#scroller').hover();
    await page.mouse.wheel(0, -300);
    await page.locator('.jump-latest').waitFor();
    // The reader scrolls on up while they come (on a busy machine they may all have come by now).
    for (let i = 0; i < 20; i++) await page.mouse.wheel(0, -400);
    await page.locator('.markdown[data-block-id="b0"]').waitFor({ state: 'attached' });
    const keep = await page.evaluate(() => {
      const { prepends, drift } = (window as unknown as { __keep: { prepends: number; drift: number[] } }).__keep;
      return { prepends, drift };
    });
    assert.ok(keep.prepends > 0, 'older messages came after the newest');
    assert.ok(
      keep.drift.every((d) => d <= 1),
      `the message in view moved by ${Math.max(...keep.drift)} px when older ones came`,
    );
    assert.equal(await page.locator('#messages > .msg.user').count(), 800);
    assert.equal(await page.locator('.jump-latest').isVisible(), true, 'the reader was not taken back to the end');
  });
});
