// The chat webview's frame times in headless Chromium, through the test harness (the built dist/webview on a
// page like VS Code's): 2,000 text deltas a second streamed into one answer, and scrolling a 1,000-message
// chat. Baselines in the same run: the same deltas appended to a plain <pre>, the same messages as plain text.
import { loadDriver } from '../lib/driver.mjs';
import { fmtMs, fmtRatio, percentile, ratio, timed } from '../lib/stats.mjs';

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
    // The plain page's way of opening a chat: each question and answer as a plain paragraph, then the end shown.
    window.addEventListener('message', (e) => {
      if (e.data?.type !== 'plain-replay') return;
      const ps = e.data.events
        .filter((ev) => ev.kind === 'user' || ev.kind === 'assistant_text')
        .map((ev) => {
          const p = document.createElement('p');
          p.style.whiteSpace = 'pre-wrap';
          p.dataset.id = ev.blockId ?? ev.id;
          p.textContent = ev.text;
          return p;
        });
      box.replaceChildren(...ps);
      box.scrollTop = box.scrollHeight;
    });
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

/**
 * Opens a chat in the page: posts `message` (as the host does) and times it to the frame after the one in which
 * `newest` is on the page and `scroller` shows its end (handling, layout, paint), recording every task over
 * 50 ms meanwhile (Long Tasks API, and Long Animation Frames where the browser has them).
 */
function measureOpen(page, message, newest, scroller) {
  return page.evaluate(
    ({ message, newest, scroller }) =>
      new Promise((resolve) => {
        const tasks = [];
        const frames = [];
        const observers = [];
        for (const [type, into] of [
          ['longtask', tasks],
          ['long-animation-frame', frames],
        ]) {
          try {
            const o = new PerformanceObserver((list) => into.push(...list.getEntries().map((e) => e.duration)));
            o.observe({ type });
            observers.push(o);
          } catch {
            // This browser has no such entries.
          }
        }
        const t0 = performance.now();
        window.postMessage(message, '*');
        const check = () => {
          const el = document.querySelector(newest);
          const box = document.querySelector(scroller);
          const shown = el && box && box.scrollHeight - box.scrollTop - box.clientHeight <= 24;
          if (!shown) return void requestAnimationFrame(check);
          requestAnimationFrame(() => {
            const ms = performance.now() - t0;
            // Entries are delivered after their task: one more task for the observers to report.
            setTimeout(() => {
              for (const o of observers) {
                tasks.push(
                  ...o
                    .takeRecords()
                    .filter((e) => e.entryType === 'longtask')
                    .map((e) => e.duration),
                );
                o.disconnect();
              }
              resolve({ ms, tasks, frames, longest: Math.max(0, ...tasks, ...frames) });
            }, 50);
          });
        };
        requestAnimationFrame(check);
      }),
    { message, newest, scroller },
  );
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
    const newestId = `b${MESSAGES / 2 - 1}`;
    const chatScroll = await harness.open({ width: 400, height: 800 });
    await chatScroll.post({ type: 'state', state: { ...readyState, busy: false } });
    const open = await measureOpen(chatScroll.page, { type: 'replay', events }, `.markdown[data-block-id="${newestId}"]`, '#scroller');
    const openCounters = await chatScroll.stats();
    // Scrolled once the whole chat is on the page, as the baseline is.
    await chatScroll.page.evaluate(() => {
      window.__fillTasks = [];
      new PerformanceObserver((list) => window.__fillTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
    });
    const [fullMs] = await timed(() => chatScroll.page.waitForSelector('.markdown[data-block-id="b0"]', { state: 'attached', timeout: 120_000 }));
    const fillTasks = await chatScroll.page.evaluate(() => window.__fillTasks);
    const scroll = summary(await measureFrames(chatScroll.page, SCROLL_SECONDS, scrollLoad('#scroller')));
    await chatScroll.page.close();

    const plainScroll = await harness.open({ width: 400, height: 800 });
    await plainBox(plainScroll.page, '');
    const plainOpen = await measureOpen(plainScroll.page, { type: 'plain-replay', events }, `p[data-id="${newestId}"]`, '#plain');
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
        [
          `open a ${MESSAGES.toLocaleString('en')}-message chat (newest shown; longest task)`,
          `${fmtMs(open.ms)}; ${fmtMs(open.longest)}`,
          `${fmtMs(plainOpen.ms)}; ${fmtMs(plainOpen.longest)}`,
          `${fmtRatio(ratio(open.ms, plainOpen.ms))} (time)`,
          `${open.tasks.length} / ${plainOpen.tasks.length} tasks`,
        ],
      ],
      notes: [
        `stream: ${stream.extra.posted} deltas posted as window messages (${streamedChars.toLocaleString('en')} characters shown), ${counters.markdownRenders} markdown renders in ${counters.frames} batches; baseline = the same deltas appended to a plain <pre> (scrolled to its end each time)`,
        `scroll: 40 px a frame, down and up, ${Math.round(scroll.extra.moved).toLocaleString('en')} px moved over ${scroll.extra.height.toLocaleString('en')} px; baseline = the same texts as plain <p>; scrolled once the whole chat was on the page (${fmtMs(fullMs)} after the newest was shown, meanwhile ${fillTasks.length} tasks over 50 ms, the longest ${fmtMs(Math.max(0, ...fillTasks))})`,
        `open: from posting the replay to the frame after the newest message is on the page and scrolled into view; ${openCounters.markdownRenders} markdown renders by then; longest task = the longest Long Task or Long Animation Frame (0: none over 50 ms); baseline = the same texts as plain <p>, built from the same events`,
        `frame time = rAF to rAF (about 16.7 ms at 60 Hz); long frames counted by the Long Animation Frames API where the browser has it, else rAF gaps over ${LONG_MS} ms`,
      ],
      data: { stream, pre, scroll, plain, open, plainOpen, fullMs, fillTasks, counters, openCounters },
    };
  } finally {
    await harness.close();
  }
}
