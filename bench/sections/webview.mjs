// The chat webview's frame times in headless Chromium, through the test harness (the built dist/webview on a
// page like VS Code's): 2,000 text deltas a second streamed into one answer, and scrolling a 1,000-message
// chat. Baselines in the same run: the same deltas appended to a plain <pre>, the same messages as plain text.
import { loadDriver } from '../lib/driver.mjs';
import { fmtMs, fmtRatio, percentile, ratio } from '../lib/stats.mjs';

const STREAM_SECONDS = 4;
const DELTAS_PER_SECOND = 2000;
const MESSAGES = 1000;
const SCROLL_SECONDS = 4;
/** A frame longer than this is a long frame (the Long Animation Frames API's threshold). */
const LONG_MS = 50;

/** An answer as a model streams it: prose, lists, code, a table, again and again; cut into token-sized deltas. */
function answerDeltas(count) {
  const answer = [
    'Reading the books table first, then the loans, to see which genres are borrowed most often.\n\n',
    '1. **Science Fiction** leads with 212 loans;\n2. *Fantasy* follows with 187;\n3. `Mystery` is third.\n\n',
    '```python\nimport sqlite3\n\nwith sqlite3.connect("data.db") as db:\n    rows = db.execute("SELECT genre, COUNT(*) FROM loans GROUP BY genre").fetchall()\nprint(rows)\n```\n\n',
    '| Genre | Loans | Share |\n| --- | --- | --- |\n| Science Fiction | 212 | 31 % |\n| Fantasy | 187 | 27 % |\n| Mystery | 120 | 18 % |\n\n',
    'The numbers hold across both years, so the trend is not an artefact of one busy term. See `notes/loans.md` for the raw query.\n\n',
  ].join('');
  const out = [];
  for (let i = 0, at = 0; i < count; i++) {
    const len = 3 + (i % 5);
    out.push(answer.slice(at % answer.length, (at % answer.length) + len) || answer.slice(0, len));
    at += len;
  }
  return out;
}

/** 1,000 messages: questions, answers with markdown (code every 5th, a table every 10th), tool cards. */
function longChat() {
  const events = [];
  for (let i = 0; i < MESSAGES / 2; i++) {
    const turnId = `t${i}`;
    events.push({ kind: 'user', id: `u${i}`, text: `Question ${i}: what changed in chapter ${i}?`, attachments: [], at: i });
    if (i % 4 === 0) {
      events.push({ kind: 'tool_call', turnId, callId: `c${i}`, server: 'workspace', tool: 'read_file', input: { path: `chapters/${i}.md` } });
      events.push({ kind: 'tool_result', callId: `c${i}`, isError: false, content: [{ type: 'text', text: `# Chapter ${i}\n`.repeat(20) }], durationMs: 12 });
    }
    let text = `Chapter **${i}** changed in three places. The first is the opening, which now starts in the library; the second is a new scene with \`Ada\`; the third is the ending.\n\n- opening\n- new scene\n- ending`;
    if (i % 5 === 0)
      text += `\n\n\`\`\`ts\nexport function chapter${i}(books: Book[]): number {\n  return books.filter((b) => b.year > ${1900 + i}).length;\n}\n\`\`\``;
    if (i % 10 === 0) text += `\n\n| Scene | Words |\n| --- | --- |\n| opening | ${i * 3} |\n| ending | ${i * 2} |`;
    events.push({ kind: 'assistant_text', turnId, blockId: `b${i}`, text });
    events.push({ kind: 'turn_end', turnId, status: 'done' });
  }
  return events;
}

/**
 * Runs a load in the page while recording every animation frame's duration (rAF to rAF) and the Long Animation
 * Frames the browser reports. `startLoad(page)` starts the load and leaves its stop function in window.__benchStop.
 */
async function measureFrames(page, seconds, startLoad) {
  await page.evaluate(() => {
    const rec = { frames: [], long: [], loaf: false, running: true, last: 0 };
    try {
      rec.observer = new PerformanceObserver((list) => rec.long.push(...list.getEntries().map((e) => e.duration)));
      rec.observer.observe({ type: 'long-animation-frame' });
      rec.loaf = true;
    } catch {
      rec.loaf = false;
    }
    const tick = (t) => {
      if (rec.last) rec.frames.push(t - rec.last);
      rec.last = t;
      if (rec.running) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    window.__benchFrames = rec;
  });
  await startLoad(page);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return page.evaluate(() => {
    const extra = window.__benchStop();
    const rec = window.__benchFrames;
    rec.running = false;
    rec.observer?.disconnect();
    return { frames: rec.frames, long: rec.long, loaf: rec.loaf, extra };
  });
}

/** Posts the deltas as the host does (window messages), every 5 ms as many as are due at 2,000 a second. */
function streamLoad(type, deltas) {
  return (page) =>
    page.evaluate(
      ({ type, deltas, perSecond }) => {
        let i = 0;
        const t0 = performance.now();
        // Paced by the clock, not by the timer's count: a late timer posts what it owes, as a busy host would.
        const timer = setInterval(() => {
          const due = Math.min(deltas.length, Math.floor(((performance.now() - t0) / 1000) * perSecond));
          for (; i < due; i++) window.postMessage({ type, turnId: 'live', blockId: 'live-b', text: deltas[i] }, '*');
        }, 5);
        window.__benchStop = () => {
          clearInterval(timer);
          return { posted: i };
        };
      },
      { type, deltas, perSecond: DELTAS_PER_SECOND },
    );
}

/** Scrolls `selector` by 40 px a frame, down to the end and back up, for as long as the measure runs. */
function scrollLoad(selector) {
  return (page) =>
    page.evaluate((selector) => {
      const el = document.querySelector(selector);
      el.scrollTop = 0;
      let dir = 1;
      let running = true;
      let moved = 0;
      const step = () => {
        if (!running) return;
        const before = el.scrollTop;
        el.scrollTop += 40 * dir;
        moved += Math.abs(el.scrollTop - before);
        if (el.scrollTop === before) dir = -dir;
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
      window.__benchStop = () => {
        running = false;
        return { moved, height: el.scrollHeight };
      };
    }, selector);
}

/** The baseline page: the harness page with the chat hidden and a plain scrolling box in its place. */
async function plainBox(page, inner) {
  await page.evaluate((html) => {
    document.getElementById('root').style.display = 'none';
    const box = document.createElement('div');
    box.id = 'plain';
    box.style.cssText = 'height: 100vh; overflow: auto; padding: 12px; box-sizing: border-box;';
    box.innerHTML = html;
    document.body.append(box);
    const pre = box.querySelector('pre');
    if (pre) {
      window.addEventListener('message', (e) => {
        if (e.data?.type !== 'plain-delta') return;
        pre.append(e.data.text);
        box.scrollTop = box.scrollHeight;
      });
    }
  }, inner);
}

function summary(run) {
  const long = run.loaf ? run.long.length : run.frames.filter((f) => f > LONG_MS).length;
  return { p50: percentile(run.frames, 50), p95: percentile(run.frames, 95), max: Math.max(...run.frames), frames: run.frames.length, long, extra: run.extra };
}

const readyState = { hasKey: true, trusted: true, busy: true, model: 'claude-sonnet-5-5', workspaceName: 'bench', serverProblems: [] };

export async function benchWebview() {
  const { startHarness } = await loadDriver('test/fakes/webview-harness.ts', { external: true });
  const harness = await startHarness();
  try {
    const deltas = answerDeltas(STREAM_SECONDS * DELTAS_PER_SECOND);

    const chatStream = await harness.open({ width: 400, height: 800 });
    await chatStream.post({ type: 'state', state: readyState });
    await chatStream.post({ type: 'event', event: { kind: 'user', id: 'u-live', text: 'Which genres are borrowed most?', attachments: [], at: 1 } });
    const stream = summary(await measureFrames(chatStream.page, STREAM_SECONDS, streamLoad('delta', deltas)));
    const counters = await chatStream.stats();
    const streamedChars = await chatStream.page.evaluate(() => document.querySelector('.markdown[data-block-id="live-b"]')?.textContent?.length ?? 0);
    await chatStream.page.close();

    const preStream = await harness.open({ width: 400, height: 800 });
    await plainBox(preStream.page, '<pre style="white-space: pre-wrap"></pre>');
    const pre = summary(await measureFrames(preStream.page, STREAM_SECONDS, streamLoad('plain-delta', deltas)));
    await preStream.page.close();

    const events = longChat();
    const chatScroll = await harness.open({ width: 400, height: 800 });
    await chatScroll.post({ type: 'state', state: { ...readyState, busy: false } });
    // Timed in the page, from posting the replay to the frame after the one that shows it (handling, layout, paint).
    const replayMs = await chatScroll.page.evaluate(
      (events) =>
        new Promise((resolve) => {
          const t0 = performance.now();
          window.postMessage({ type: 'replay', events }, '*');
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - t0)));
        }),
      events,
    );
    await chatScroll.page.waitForSelector(`.markdown[data-block-id="b${MESSAGES / 2 - 1}"]`);
    const scroll = summary(await measureFrames(chatScroll.page, SCROLL_SECONDS, scrollLoad('#scroller')));
    await chatScroll.page.close();

    const plainScroll = await harness.open({ width: 400, height: 800 });
    const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    await plainBox(
      plainScroll.page,
      events
        .filter((e) => e.kind === 'user' || e.kind === 'assistant_text')
        .map((e) => `<p style="white-space: pre-wrap">${escape(e.text)}</p>`)
        .join(''),
    );
    const plain = summary(await measureFrames(plainScroll.page, SCROLL_SECONDS, scrollLoad('#plain')));
    await plainScroll.page.close();

    const row = (label, ours, base) => [
      label,
      `${fmtMs(ours.p50)} / ${fmtMs(ours.p95)} / ${fmtMs(ours.max)}`,
      `${fmtMs(base.p50)} / ${fmtMs(base.p95)} / ${fmtMs(base.max)}`,
      `${fmtRatio(ratio(ours.p95, base.p95))} (p95)`,
      `${ours.long} / ${base.long}`,
    ];
    return {
      title: 'Chat webview frame times (headless Chromium)',
      header: ['load', 'ours p50 / p95 / max', 'baseline p50 / p95 / max', 'ratio', `long frames > ${LONG_MS} ms (ours / baseline)`],
      rows: [
        row(`${DELTAS_PER_SECOND.toLocaleString('en')} deltas/s for ${STREAM_SECONDS} s`, stream, pre),
        row(`scroll a ${MESSAGES.toLocaleString('en')}-message chat for ${SCROLL_SECONDS} s`, scroll, plain),
      ],
      notes: [
        `stream: ${stream.extra.posted} deltas posted as window messages (${streamedChars.toLocaleString('en')} characters shown), ${counters.markdownRenders} markdown renders in ${counters.frames} batches; baseline = the same deltas appended to a plain <pre> (scrolled to its end each time)`,
        `scroll: 40 px a frame, down and up, ${Math.round(scroll.extra.moved).toLocaleString('en')} px moved over ${scroll.extra.height.toLocaleString('en')} px; baseline = the same texts as plain <p>; opening it (the replay posted, handled, laid out and painted) took ${fmtMs(replayMs)}`,
        `frame time = rAF to rAF (about 16.7 ms at 60 Hz); long frames counted by the Long Animation Frames API where the browser has it, else rAF gaps over ${LONG_MS} ms`,
      ],
      data: { stream, pre, scroll, plain, replayMs, counters },
    };
  } finally {
    await harness.close();
  }
}
