import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { HtmlConversionError, HtmlConverter } from '../../servers/web/html-converter.js';
import { repoRoot } from './helpers/bundled-server.js';

/**
 * The worker-thread HTML converter, with the real worker bundle as its script (built from
 * html-worker-main.ts beside web.js): replies, reuse, and that a deadline or a cancel really stops the
 * thread rather than leaving it to burn a core.
 */

const workerFile = join(repoRoot(), 'dist', 'servers', 'web-html-worker.js');
const base = new URL('https://site.example/');
const never = new AbortController().signal;
/** Seconds of work for the converter on any machine: 600,000 paragraphs 120 levels deep. */
const slowPage = `${'<div>'.repeat(120)}${'<p>x</p>'.repeat(600_000)}`;

describe('HtmlConverter (worker threads)', () => {
  const converters: HtmlConverter[] = [];
  const converter = (options: Partial<ConstructorParameters<typeof HtmlConverter>[0]> = {}): HtmlConverter => {
    const c = new HtmlConverter({ workerFile, ...options });
    converters.push(c);
    return c;
  };

  after(async () => {
    await Promise.all(converters.map((c) => c.close()));
  });

  test('converts in a worker and keeps it for the next page', async () => {
    const c = converter();
    const first = await c.convert('<title>T</title><h1>Hello</h1><p><a href="/x">link</a></p>', base, { signal: never, timeoutMs: 30_000 });
    assert.deepEqual(first, { title: 'T', markdown: '# T\n\n# Hello\n\n[link](https://site.example/x)', flattened: 0 });
    assert.equal(c.workers, 1);
    const second = await c.convert(`${'<div>'.repeat(200)}deep`, base, { signal: never, timeoutMs: 30_000 });
    assert.equal(second.markdown, 'deep');
    assert.equal(second.flattened, 200 - 128);
    assert.equal(c.workers, 1, 'the same worker served both');
  });

  test('a worker that converted a big page is not kept (it holds the heap it grew to)', async () => {
    const c = converter();
    const big = await c.convert('<p>x</p>'.repeat(150_000), base, { signal: never, timeoutMs: 60_000 });
    assert.equal(big.markdown.length, 150_000 * 3 - 2);
    assert.equal(c.workers, 0);
  });

  test('a conversion past its deadline is stopped: error at once, thread gone', async () => {
    const c = converter();
    const conversion = c.convert(slowPage, base, { signal: never, timeoutMs: 300 });
    await assert.rejects(conversion, (err: unknown) => err instanceof HtmlConversionError && err.timedOut && /within 0\.3 s/.test(err.message));
    assert.equal(c.workers, 0);
    const after = await c.convert('<p>next</p>', base, { signal: never, timeoutMs: 30_000 });
    assert.equal(after.markdown, 'next');
  });

  test('cancelling stops the thread', async () => {
    const c = converter();
    const controller = new AbortController();
    const conversion = c.convert(slowPage, base, { signal: controller.signal, timeoutMs: 60_000 });
    setImmediate(() => controller.abort(new Error('stopped by the test')));
    await assert.rejects(conversion, /stopped by the test/);
    assert.equal(c.workers, 0);
  });

  test('past the worker limit a conversion waits its turn, and can be cancelled while it waits', async () => {
    const c = converter({ maxWorkers: 1 });
    const busy = new AbortController();
    const running = c.convert(slowPage, base, { signal: busy.signal, timeoutMs: 60_000 });
    const waiting = new AbortController();
    const queued = c.convert('<p>queued</p>', base, { signal: waiting.signal, timeoutMs: 60_000 });
    waiting.abort(new Error('gave up waiting'));
    await assert.rejects(queued, /gave up waiting/);
    const turn = c.convert('<p>my turn</p>', base, { signal: never, timeoutMs: 60_000 });
    busy.abort(new Error('done with the slow one'));
    await assert.rejects(running, /done with the slow one/);
    assert.equal((await turn).markdown, 'my turn');
  });

  test('a page that needs more memory than a worker may have fails alone', async () => {
    const c = converter({ maxHeapMb: 64 });
    const huge = '<p>hello world</p>'.repeat(500_000);
    await assert.rejects(c.convert(huge, base, { signal: never, timeoutMs: 60_000 }), /needed more than 64 MB of memory/);
    assert.equal(c.workers, 0);
    assert.equal((await c.convert('<p>fine</p>', base, { signal: never, timeoutMs: 30_000 })).markdown, 'fine');
  });
});
