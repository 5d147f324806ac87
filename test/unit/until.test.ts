// until(), the one wait of the tests: it resolves with the first truthy answer, wakes on events when given them,
// and a wait that does not end fails saying what it waited for and what it last saw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { machineFactor, scaled, until } from '../support/until';

test('the machine factor is measured once per process, between 1 and 20, and scales limits by it', () => {
  const factor = machineFactor();
  assert.ok(factor >= 1 && factor <= 20, String(factor));
  assert.equal(machineFactor(), factor);
  assert.equal(scaled(1000), Math.round(1000 * factor));
});

test('a polled condition resolves with its first truthy answer', async () => {
  let asked = 0;
  const answer = await until(() => (++asked >= 3 ? { asked } : undefined), { what: 'the third ask', everyMs: 1 });
  assert.deepEqual(answer, { asked: 3 });
});

test('with `wake`, the condition is asked on each event, not on a clock, and the listener is removed after', async () => {
  const events = new EventEmitter();
  let count = 0;
  let asked = 0;
  const done = until(() => (asked++, count >= 2), {
    what: 'two events',
    wake: (check) => (events.on('tick', check), () => void events.off('tick', check)),
  });
  assert.equal(asked, 1, 'asked once at the start');
  for (let i = 0; i < 2; i++) {
    count++;
    events.emit('tick');
  }
  assert.equal(await done, true);
  assert.equal(asked, 3, 'asked once per event');
  assert.equal(events.listenerCount('tick'), 0);
});

test('an async condition is never asked twice at once: an event during an ask asks again after it', async () => {
  const events = new EventEmitter();
  let running = 0;
  let overlapped = false;
  let answer = false;
  let asked = 0;
  const done = until(
    async () => {
      asked++;
      const now = answer;
      overlapped ||= running > 0;
      running++;
      await new Promise<void>((resolve) => setImmediate(resolve));
      running--;
      return now;
    },
    { what: 'the answer', wake: (check) => (events.on('tick', check), () => void events.off('tick', check)) },
  );
  answer = true;
  events.emit('tick');
  events.emit('tick');
  assert.equal(await done, true);
  assert.equal(overlapped, false);
  assert.equal(asked, 2, 'the two events during the first ask made one more');
});

test('a wait that does not end fails naming what it waited for and the last value seen', async () => {
  let n = 0;
  await assert.rejects(
    until(() => (n++, false), { what: 'a thing that never comes', timeoutMs: 30, everyMs: 5, seen: () => ({ n: 'counted' }) }),
    (err: Error) => {
      assert.match(err.message, /^gave up after \d+ ms waiting for a thing that never comes; last seen: \{ n: 'counted' \}$/);
      return true;
    },
  );
  const asked = n;
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(n, asked, 'no asking after the wait failed');
});

test('without `seen`, the last answer is shown, a long text by its end', async () => {
  const output = `${'x'.repeat(5000)} the end`;
  await assert.rejects(
    until(() => output.includes('never') && output, { what: 'never', timeoutMs: 10 }),
    (err: Error) => {
      assert.match(err.message, /last seen: false$/);
      return true;
    },
  );
  await assert.rejects(
    until(() => (output.includes('never') ? output : ''), { what: 'never', timeoutMs: 10, seen: () => output }),
    (err: Error) => {
      assert.match(err.message, /last seen: …x+ the end'$/);
      assert.ok(err.message.length < 1700);
      return true;
    },
  );
});

test('a condition that throws fails the wait at once with its error', async () => {
  await assert.rejects(
    until(
      () => {
        throw new Error('the check itself failed');
      },
      { what: 'anything', timeoutMs: 60_000 },
    ),
    /the check itself failed/,
  );
});

test('an event wait left behind (the loser of a race) does not hold the process open; a polled one does while it polls', async () => {
  const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  const before = timers();
  const events = new EventEmitter();
  const forgotten = until(() => false, {
    what: 'an event that never comes',
    wake: (check) => (events.on('tick', check), () => void events.off('tick', check)),
  });
  forgotten.catch(() => undefined);
  assert.equal(timers(), before, 'the event wait holds no timer that keeps the process alive');
  let done = false;
  const polled = until(() => done, { what: 'done', everyMs: 1 });
  assert.ok(timers() > before, 'the polled wait does');
  done = true;
  await polled;
});
