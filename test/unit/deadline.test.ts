// A wait's time limit as a signal (src/node/deadline.ts): it ends the wait when the time is up even if a garbage
// collection comes meanwhile (where AbortSignal.any with AbortSignal.timeout, on Node 20, never fires), follows the
// outer signal, and stops when cleared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { deadline } from '../../src/node/deadline';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A wait as code writes one: the signal only reachable through its own listener. */
function waitOn(ms: number, outer: AbortSignal): Promise<unknown> {
  const { signal } = deadline(ms, outer);
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));
}

test('every wait ends when its time is up, garbage collections meanwhile', async () => {
  const outer = new AbortController();
  const waits = Array.from({ length: 100 }, () => waitOn(80, outer.signal));
  gc();
  await new Promise((r) => setTimeout(r, 20));
  gc();
  const reasons = await Promise.all(waits);
  assert.equal(reasons.length, 100);
  for (const reason of reasons) assert.equal((reason as DOMException).name, 'TimeoutError');
});

test('the outer signal ends it at once, with its reason; a cleared deadline never fires', async () => {
  const outer = new AbortController();
  const first = deadline(60_000, outer.signal);
  outer.abort(new Error('Stop'));
  assert.equal(first.signal.aborted, true);
  assert.equal((first.signal.reason as Error).message, 'Stop');
  first.clear();

  const already = deadline(60_000, outer.signal);
  assert.equal(already.signal.aborted, true, 'an outer signal aborted before is taken at once');
  already.clear();

  const cleared = deadline(10);
  cleared.clear();
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(cleared.signal.aborted, false);

  const own = deadline(5);
  await new Promise((r) => own.signal.addEventListener('abort', r, { once: true }));
  assert.equal((own.signal.reason as DOMException).name, 'TimeoutError');
});
