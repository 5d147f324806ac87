// The chat webview in headless Chromium: what follows the conversation and what a person acts on in it
// (Retry / Set API Key / Continue, Jump to latest, cards waiting for approval, SQL tables, images).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { useChatPages } from '../fakes/webview-pages';
import { pageOverflow } from '../fakes/webview-contrast';
import { pendingApproval, PNG_1PX, readyState } from '../fakes/webview-conversation';
import { shownText } from '../support/shown-text';

const { openChat, openReady, scrollToTopByWheel, screenshotPath } = useChatPages();

describe('chat webview: following and actions', () => {
  test('Enter during a turn queues the message visibly; each end of a turn sends one, a refused one comes back named, one taken back never goes', async () => {
    const chat = await openChat({ height: 520 });
    const { page } = chat;
    await chat.post({ type: 'state', state: { ...readyState, busy: true } });
    const input = page.locator('#input');
    for (const text of ['first, while the turn runs', 'second, taken back', 'third', 'fourth']) {
      await input.fill(text);
      await input.press('Enter');
    }
    const queued = page.locator('.queued .queued-text');
    assert.deepEqual(await queued.allTextContents(), ['first, while the turn runs', 'second, taken back', 'third', 'fourth']);
    assert.equal(await input.inputValue(), '', 'what was typed is in the queue, not lost');
    assert.deepEqual(
      (await chat.posted()).filter((m) => m.type === 'request' && m.method === 'send'),
      [],
      'nothing is sent while the turn runs',
    );
    await page.screenshot({ path: screenshotPath('queued-light') });
    await page.locator('.queued-item', { hasText: 'second' }).locator('.queued-remove').click();

    // The host posts its state several times as a turn ends: one message goes, the rest wait for its answer.
    for (let i = 0; i < 3; i++) await chat.post({ type: 'state', state: { ...readyState, busy: false } });
    const [first] = await chat.waitForSent(1);
    assert.equal(first?.message.text, 'first, while the turn runs');
    await chat.post({ type: 'state', state: { ...readyState, busy: true } });
    await chat.post({ type: 'response', id: first!.id, result: { sent: true } });
    await chat.post({ type: 'state', state: { ...readyState, busy: false } });
    await chat.post({ type: 'state', state: { ...readyState, busy: false } });
    const [, third] = await chat.waitForSent(2);
    assert.equal(third?.message.text, 'third');
    assert.equal((await chat.waitForSent(2)).length, 2, 'one message for one end of a turn');
    assert.deepEqual(await queued.allTextContents(), ['fourth']);

    // Refused (a view's turn started first): back first in line, and the note names it.
    await chat.post({ type: 'state', state: { ...readyState, busy: true } });
    await chat.post({ type: 'response', id: third!.id, result: { sent: false, why: 'A turn is still running: stop it or wait for it to finish.' } });
    await page.locator('.composer-note', { hasText: '“third”' }).waitFor();
    assert.deepEqual(await queued.allTextContents(), ['third', 'fourth']);
    await chat.post({ type: 'state', state: { ...readyState, busy: false } });
    const sent = await chat.waitForSent(3);
    assert.equal(sent[2]?.message.text, 'third', 'the refused message goes again, before the one behind it');
    await chat.post({ type: 'response', id: sent[2]!.id, result: { sent: true } });
    // No turn ran (no key): the next goes once the last is answered.
    const all = await chat.waitForSent(4);
    assert.deepEqual(
      all.map((s) => s.message.text),
      ['first, while the turn runs', 'third', 'third', 'fourth'],
    );
    await chat.post({ type: 'response', id: all[3]!.id, result: { sent: true } });
    await page.locator('.queued').waitFor({ state: 'hidden' });
  });

  test('the chat follows through an approval, a denial and an error; a reader who scrolled up gets "jump to latest"', async () => {
    const chat = await openChat({ height: 420 });
    const { page } = chat;
    await chat.post({ type: 'state', state: { ...readyState, busy: true } });
    const para = Array.from({ length: 30 }, (_, i) => `Paragraph ${i}.`).join('\n\n');
    await chat.post({ type: 'event', event: { kind: 'user', id: 'u1', text: 'go', attachments: [], at: 1 } });
    await chat.post({ type: 'event', event: { kind: 'assistant_text', turnId: 't2', blockId: 'a', text: para } });
    for (const event of pendingApproval) await chat.post({ type: 'event', event });
    const gap = () =>
      page.evaluate(() => {
        const s = document.getElementById('scroller')!;
        return Math.round(s.scrollHeight - s.scrollTop - s.clientHeight);
      });
    await page.locator('.approval[data-call-id="c2"] button[data-decision="deny"]').click();
    await chat.post({ type: 'event', event: { kind: 'approval', callId: 'c2', decision: 'deny' } });
    await chat.post({
      type: 'event',
      event: { kind: 'tool_result', callId: 'c2', isError: true, content: [{ type: 'text', text: 'The person denied this tool call.' }], durationMs: 0 },
    });
    await chat.post({
      type: 'event',
      event: { kind: 'assistant_text', turnId: 't2', blockId: 'z', text: `Understood, I will not write it.\n\n${para}\n\nFINAL LINE` },
    });
    await chat.post({
      type: 'event',
      event: { kind: 'turn_end', turnId: 't2', status: 'error', error: 'The Anthropic API is overloaded (529).', action: 'retry' },
    });
    // A posted message is handled after post() returns: wait for the turn's end itself before checking the scroll.
    await page.locator('.turn-end[data-status="error"]').waitFor();
    await page.waitForFunction(() => {
      const s = document.getElementById('scroller')!;
      return s.scrollHeight - s.scrollTop - s.clientHeight < 2;
    });
    assert.ok(await page.locator('.turn-end[data-status="error"]').isVisible());
    assert.equal(await page.locator('.jump-latest').isVisible(), false);

    // Layout moving the position (not the reader) does not unpin, and content that grows later is followed.
    await page.evaluate(() => {
      const s = document.getElementById('scroller')!;
      s.scrollTop = s.scrollTop - 300;
      const late = document.createElement('div');
      late.style.height = '500px';
      late.className = 'late-layout';
      document.getElementById('messages')!.append(late);
    });
    await page.waitForFunction(() => {
      const s = document.getElementById('scroller')!;
      return s.scrollHeight - s.scrollTop - s.clientHeight < 2;
    });
    await page.evaluate(() => document.querySelector('.late-layout')!.remove());

    // The reader scrolls up with the wheel: new output no longer moves them, and a button offers the way back.
    await scrollToTopByWheel(page);
    await chat.post({ type: 'event', event: { kind: 'user', id: 'u3', text: 'more', attachments: [], at: 3 } });
    await chat.post({ type: 'event', event: { kind: 'assistant_text', turnId: 't3', blockId: 'b', text: para } });
    await page.locator('.jump-latest').waitFor();
    assert.equal(await page.evaluate(() => document.getElementById('scroller')!.scrollTop), 0);
    await page.screenshot({ path: screenshotPath('jump-latest') });
    await page.locator('.jump-latest').click();
    await page.waitForFunction(() => {
      const s = document.getElementById('scroller')!;
      return s.scrollHeight - s.scrollTop - s.clientHeight < 2;
    });
    await page.locator('.jump-latest').waitFor({ state: 'hidden' });
    assert.ok((await gap()) < 2);
  });

  test('a 529 offers Retry after the countdown the API asked for; one click sends one retry', async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({ type: 'event', event: { kind: 'user', id: 'u1', text: 'hi', attachments: [], at: 1 } });
    await chat.post({
      type: 'event',
      event: { kind: 'turn_end', turnId: 't1', status: 'error', error: 'The Anthropic API is overloaded (529).', action: 'retry', retryAfterS: 2 },
    });
    const button = page.locator('.turn-end[data-status="error"] button[data-action="retry"]');
    await button.waitFor();
    assert.equal(await button.isDisabled(), true);
    assert.match(await shownText(button), /Retry in [12] s/);
    await page.waitForFunction(() => !(document.querySelector('button[data-action="retry"]') as HTMLButtonElement).disabled, undefined, { timeout: 5000 });
    assert.equal(await shownText(button), 'Retry');
    await button.click();
    assert.deepEqual(await chat.waitForPosted('retry'), [{ type: 'retry' }]);
    assert.equal(await page.locator('.turn-actions').count(), 0, 'the button goes once used');
  });

  test('Set API Key on a 401 and on "no key"; once a key is set the notice goes and the 401 offers Retry', async () => {
    const chat = await openChat();
    const { page } = chat;
    await chat.post({ type: 'state', state: { ...readyState, hasKey: false } });
    await chat.post({ type: 'event', event: { kind: 'user', id: 'u1', text: 'hi', attachments: [], at: 1 } });
    await chat.post({ type: 'event', event: { kind: 'notice', level: 'error', text: 'No Anthropic API key is set.', action: 'setKey' } });
    await page.locator('.notice button[data-action="setKey"]').click();
    assert.deepEqual(await chat.waitForPosted('setApiKey'), [{ type: 'setApiKey' }]);
    await chat.post({ type: 'event', event: { kind: 'user', id: 'u2', text: 'again', attachments: [], at: 2 } });
    await chat.post({
      type: 'event',
      event: { kind: 'turn_end', turnId: 't2', status: 'error', error: 'The Anthropic API rejected the API key (401).', action: 'setKey' },
    });
    await page.locator('.turn-end button[data-action="setKey"]').waitFor();
    await chat.post({ type: 'state', state: readyState });
    await page.locator('.turn-end button[data-action="retry"]').waitFor();
    assert.equal(await page.locator('.notice[data-action="setKey"]').count(), 0, 'the "no key" notice is gone');
    assert.equal(await page.locator('button[data-action="setKey"]').count(), 0);
  });

  test('Continue after the iteration cap sends "Continue"; anything new retires old buttons, and a replay has no countdown', async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({
      type: 'event',
      event: { kind: 'turn_end', turnId: 't1', status: 'max_iterations', error: 'Stopped after 10 model calls.', action: 'continue' },
    });
    await page.locator('button[data-action="continue"]').click();
    assert.deepEqual(
      (await chat.waitForSent()).map((s) => s.message),
      [{ text: 'Continue', attachments: [], images: [] }],
    );
    await chat.post({ type: 'event', event: { kind: 'turn_end', turnId: 't2', status: 'error', error: 'Could not reach the API.', action: 'retry' } });
    await page.locator('button[data-action="retry"]').waitFor();
    await chat.post({ type: 'event', event: { kind: 'user', id: 'u3', text: 'something else', attachments: [], at: 3 } });
    assert.equal(await page.locator('.turn-actions').count(), 0);
    await chat.post({
      type: 'replay',
      events: [
        { kind: 'turn_end', turnId: 'old', status: 'error', error: 'overloaded', action: 'retry', retryAfterS: 600 },
        { kind: 'user', id: 'u4', text: 'later', attachments: [], at: 4 },
        { kind: 'turn_end', turnId: 'new', status: 'error', error: 'overloaded', action: 'retry', retryAfterS: 600 },
      ],
    });
    const retry = page.locator('button[data-action="retry"]');
    assert.equal(await retry.count(), 1, 'only the newest failure keeps its button');
    assert.equal(await retry.isDisabled(), false, 'a replayed wait is long over');
  });

  test('a card waiting for approval does not spin; allowed it runs; the tool name stays whole in a narrow chat', async () => {
    const chat = await openChat({ width: 300 });
    await chat.post({ type: 'state', state: readyState });
    const { page } = chat;
    await chat.post({
      type: 'event',
      event: {
        kind: 'tool_call',
        turnId: 't',
        callId: 'w',
        server: 'a-server-with-a-very-long-name',
        tool: 'query_database',
        input: { sql: 'INSERT INTO t VALUES (1)' },
      },
    });
    await chat.post({
      type: 'event',
      event: {
        kind: 'approval_request',
        callId: 'w',
        server: 'a-server-with-a-very-long-name',
        tool: 'query_database',
        reason: 'Change data.db with SQL',
        preview: 'INSERT INTO t VALUES (1)',
      },
    });
    const status = page.locator('.tool-card[data-call-id="w"] .status');
    await page.waitForSelector('.tool-card[data-call-id="w"][data-status="waiting"]');
    assert.equal(await status.evaluate((el) => getComputedStyle(el.querySelector('.status-icon')!).animationName), 'none');
    assert.deepEqual(
      await toolNameCut(page, 'w'),
      { tool: false, server: false, duration: false },
      'query_database and the long server name (on a line of its own) are shown whole',
    );
    await chat.post({ type: 'event', event: { kind: 'approval', callId: 'w', decision: 'once' } });
    await page.waitForSelector('.tool-card[data-call-id="w"][data-status="running"]');
    assert.equal(await status.evaluate((el) => getComputedStyle(el.querySelector('.status-icon')!).animationName), 'spin');
  });

  test('at a 300 px side bar a finished card shows its tool name, server and duration whole', async () => {
    const chat = await openChat({ width: 300 });
    await chat.post({ type: 'state', state: readyState });
    const { page } = chat;
    // The card the issue saw cut at both ends: "worksp… · list_directo… 19 ms".
    await chat.post({
      type: 'event',
      event: { kind: 'tool_call', turnId: 't', callId: 'l', server: 'workspace', tool: 'list_directory', input: { path: '.' } },
    });
    await chat.post({
      type: 'event',
      event: { kind: 'tool_result', callId: 'l', isError: false, content: [{ type: 'text', text: 'a.txt' }], durationMs: 810 },
    });
    await page.waitForSelector('.tool-card[data-call-id="l"][data-status="done"]');
    assert.deepEqual(await toolNameCut(page, 'l'), { tool: false, server: false, duration: false });
    // A long progress message gives way before the tool's name.
    await chat.post({ type: 'event', event: { kind: 'tool_call', turnId: 't', callId: 'p', server: 'research', tool: 'search_papers', input: {} } });
    await chat.post({ type: 'progress', callId: 'p', progress: 1, total: 3, message: 'downloading the listing of every category of papers' });
    await page.locator('.tool-card[data-call-id="p"] .duration', { hasText: 'downloading' }).waitFor();
    assert.equal((await toolNameCut(page, 'p')).tool, false, 'search_papers stays whole beside a long progress message');
    // A tool name longer than the whole header is the one case it is cut: with an ellipsis, inside the card.
    await chat.post({
      type: 'event',
      event: { kind: 'tool_call', turnId: 't', callId: 'x', server: 'github', tool: 'get_pull_request_review_comments_for_every_file', input: {} },
    });
    await page.waitForSelector('.tool-card[data-call-id="x"]');
    assert.deepEqual(await toolNameCut(page, 'x'), { tool: true, server: false, duration: false });
    assert.equal(
      await page.locator('.tool-card[data-call-id="x"] .tool-header').getAttribute('title'),
      'github · get_pull_request_review_comments_for_every_file',
    );
    assert.deepEqual(await pageOverflow(page), []);
  });

  test('query_database rows render as a table (NULL marked, notes kept), JSON one click away', async () => {
    const chat = await openReady();
    const { page } = chat;
    const rows =
      '{"columns":["title","year","genre"],"row_count":600,"rows":[\n{"title":"Dune","year":1965,"genre":null},\n{"title":"<b>x</b>","year":1,"genre":"Fantasy"}\n]}\n[showing 2 of 600 rows; add LIMIT/OFFSET or a WHERE clause to see others]';
    await chat.post({
      type: 'event',
      event: {
        kind: 'tool_call',
        turnId: 't',
        callId: 'q',
        server: 'workspace',
        tool: 'query_database',
        input: { sql: 'SELECT title, year, genre FROM books' },
      },
    });
    await chat.post({ type: 'event', event: { kind: 'tool_result', callId: 'q', isError: false, content: [{ type: 'text', text: rows }], durationMs: 5 } });
    await page.click('.tool-card[data-call-id="q"] .tool-header');
    const table = page.locator('.tool-card[data-call-id="q"] table.sql-table');
    assert.deepEqual(await table.locator('th').allInnerTexts(), ['title', 'year', 'genre']);
    assert.deepEqual(await table.locator('tbody tr').first().locator('td').allInnerTexts(), ['Dune', '1965', 'NULL']);
    assert.equal(await table.locator('td.is-null').count(), 1);
    assert.equal(await table.locator('b').count(), 0, 'cell text is text, never markup');
    assert.match(await shownText(page.locator('.tool-card[data-call-id="q"] .sql-note')), /600 rows · \[showing 2 of 600 rows/);
    await page.click('.tool-card[data-call-id="q"] .show-json');
    assert.match(await shownText(page.locator('.tool-card[data-call-id="q"] .tool-result pre')), /"title": "Dune"[\s\S]*showing 2 of 600/);
  });

  test('an image result shows open at full width while the card is collapsed; a click asks the host to open it', async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({
      type: 'event',
      event: { kind: 'tool_call', turnId: 't', callId: 'p', server: 'workspace', tool: 'run_code', input: { code: 'plot()' } },
    });
    await chat.post({
      type: 'event',
      event: {
        kind: 'tool_result',
        callId: 'p',
        isError: false,
        content: [
          { type: 'text', text: 'saved plot' },
          { type: 'image', mimeType: 'image/png', data: PNG_1PX },
        ],
        durationMs: 5,
      },
    });
    const img = page.locator('.tool-card[data-call-id="p"] .tool-images img');
    await img.waitFor();
    assert.equal(await page.locator('.tool-card[data-call-id="p"] .tool-body').isHidden(), true, 'the card stays collapsed');
    const widths = await img.evaluate((el): [number, number] => [el.getBoundingClientRect().width, el.closest('.tool-card')!.getBoundingClientRect().width]);
    assert.ok(widths[0] >= widths[1] - 20, `the plot is ${widths[0]} px in a ${widths[1]} px card`);
    await img.click();
    assert.deepEqual(await chat.waitForPosted('openImage'), [{ type: 'openImage', mimeType: 'image/png', data: PNG_1PX }]);
  });

  test('a turn that changed files offers "Restore files to before this turn", which asks the host', async () => {
    const chat = await openReady();
    const { page } = chat;
    const hash = 'a'.repeat(40);
    await chat.post({ type: 'event', event: { kind: 'assistant_text', turnId: 't9', blockId: 'b', text: 'Done.' } });
    await chat.post({ type: 'event', event: { kind: 'turn_end', turnId: 't9', status: 'done' } });
    await chat.post({
      type: 'event',
      event: { kind: 'checkpoint', turnId: 't9', before: hash, after: 'b'.repeat(40), files: ['a.md', 'src/b.py', 'c', 'd', 'e', 'f'] },
    });
    const restore = page.locator('.msg.assistant[data-turn-id="t9"] .checkpoint .restore');
    await restore.waitFor();
    assert.equal(await shownText(page.locator('.checkpoint-files')), 'Changed: a.md, b.py, c, d, e, … (6 files)');
    await restore.click();
    assert.deepEqual(await chat.waitForPosted('restore'), [{ type: 'restore', turnId: 't9' }]);
    // What the checkpoint could not keep is said under it; a turn whose only change was too big gets the note and no Restore.
    await chat.post({ type: 'event', event: { kind: 'checkpoint', turnId: 't9', before: hash, after: hash, files: [], notCovered: [] } });
    assert.equal(await page.locator('.checkpoint-left').count(), 0);
    const big = { path: 'out/dump.bin', bytes: 300 * 1024 * 1024, reason: 'size' as const };
    await chat.post({ type: 'event', event: { kind: 'user', id: 'u10', text: 'dump it', attachments: [], at: 10 } });
    await chat.post({ type: 'event', event: { kind: 'turn_end', turnId: 't10', status: 'done' } });
    await chat.post({
      type: 'event',
      event: {
        kind: 'checkpoint',
        turnId: 't10',
        before: hash,
        after: hash,
        files: [],
        notCovered: [big, { path: 'b.csv', bytes: 5, reason: 'total', deleted: true }],
      },
    });
    const note = page.locator('.msg.assistant[data-turn-id="t10"] .checkpoint-left');
    await note.waitFor();
    assert.equal(
      await shownText(note),
      'Not in the checkpoint, so Restore leaves them as they are: out/dump.bin (300 MiB), b.csv (past the total, deleted by the turn). A checkpoint keeps files up to 10 MiB, 100 MiB a turn.',
    );
    assert.equal(await page.locator('.msg.assistant[data-turn-id="t10"] .restore').count(), 0);
    // A checkpoint from an untrusted source with a bad hash is refused by the protocol, not rendered.
    await chat.post({ type: 'event', event: { kind: 'checkpoint', turnId: 'x', before: 'not-a-hash', after: hash, files: [] } } as never);
    assert.equal(await page.locator('.checkpoint').count(), 1);
    assert.equal(await page.locator('.checkpoint-left').count(), 1);
  });

  test("Up recalls the messages sent (a replayed chat's too), Down goes back; typed text is never replaced", async () => {
    const chat = await openReady();
    const { page } = chat;
    await chat.post({ type: 'replay', events: [{ kind: 'user', id: 'u0', text: 'from before the reload', attachments: [], at: 0 }] });
    const input = page.locator('#input');
    for (const text of ['first', 'second\nline two']) {
      await input.fill(text);
      await input.press('Enter');
    }
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'second\nline two');
    await input.press('ArrowUp'); // the caret is on the last line: Up moves it to the first line
    assert.equal(await input.inputValue(), 'second\nline two');
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'first');
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'from before the reload');
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'from before the reload', 'the oldest stays');
    await input.press('ArrowDown');
    assert.equal(await input.inputValue(), 'first');
    await input.press('ArrowDown');
    await input.press('ArrowDown');
    assert.equal(await input.inputValue(), '', 'past the newest: empty again');
    await input.fill('a draft');
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'a draft');
  });

  test('inline code naming a relative file is a link that asks the host to open it; other code is not', async () => {
    const chat = await openReady();
    const { page } = chat;
    const text = 'See `src/app.py:12`, `./notes.md`, `../etc/passwd`, `/etc/hosts`, `README`, `a b.txt` and [`x.md`](https://example.com).';
    await chat.post({ type: 'event', event: { kind: 'assistant_text', turnId: 'f', blockId: 'b', text } });
    const links = page.locator('.markdown .file-link');
    assert.deepEqual(await links.allInnerTexts(), ['src/app.py:12', './notes.md']);
    await links.first().click();
    assert.deepEqual(await chat.waitForPosted('openFile'), [{ type: 'openFile', path: 'src/app.py', line: 12 }]);
  });
});

/**
 * Whether a card's tool name, server name and duration are cut: their text wider than the box it is drawn in, by any
 * fraction of a pixel (which is enough for an ellipsis), or the box past the header's end.
 */
function toolNameCut(page: Page, callId: string): Promise<{ tool: boolean; server: boolean; duration: boolean }> {
  return page.locator(`.tool-card[data-call-id="${callId}"] .tool-header`).evaluate((header) => {
    const textWidth = (el: Element): number => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return range.getBoundingClientRect().width;
    };
    const cut = (el: Element): boolean =>
      textWidth(el) > el.getBoundingClientRect().width + 0.01 || el.getBoundingClientRect().right > header.getBoundingClientRect().right + 0.5;
    return {
      tool: cut(header.querySelector('.tool-tool')!),
      server: cut(header.querySelector('.tool-server')!),
      duration: cut(header.querySelector('.duration')!),
    };
  });
}
