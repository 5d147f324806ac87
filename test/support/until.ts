// The one way a test waits: for a condition, with a deadline, failing with what it waited for and what it last saw.
// A wait without a deadline ends as a bare "cancelled" at the suite's timeout, minutes later, saying nothing; a fixed
// sleep passes without testing anything when the machine is slow. The deadline is scaled by the machine factor, so
// it only ever fires when the condition truly does not come.
import { inspect } from 'node:util';
import { scaled } from '../../scripts/machine-factor.mjs';

export { machineFactor, scaled } from '../../scripts/machine-factor.mjs';

export interface UntilOptions {
  /** What is waited for, as the failure says it: "the server to be running". */
  what: string;
  /** The limit on an idle machine (default 20 s); the wait gives up after `scaled(timeoutMs)`. */
  timeoutMs?: number;
  /**
   * Subscribes `check` to the events that may change the answer and returns the unsubscribe: the predicate is then
   * asked on each of them (and at once), not on a clock. Without it the predicate is polled every `everyMs`.
   */
  wake?: (check: () => void) => () => void;
  /** How often to poll when there is no `wake` (default 50 ms). */
  everyMs?: number;
  /** What the failure shows as last seen (asked once, at the deadline), when the predicate's own answer (false) says nothing. */
  seen?: () => unknown;
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Resolves with the predicate's first truthy answer. Fails when the predicate throws (an assertion inside it fails the
 * test at once) or when the deadline passes, with the last answer seen. An async predicate is never run twice at once.
 */
export function until<T>(predicate: () => T | Promise<T>, options: UntilOptions): Promise<Truthy<T>> {
  const { what, wake, everyMs = 50, seen } = options;
  const limitMs = scaled(options.timeoutMs ?? 20_000);
  return new Promise<Truthy<T>>((resolve, reject) => {
    let last: unknown = '(not yet asked)';
    let over = false;
    let running = false;
    let again = false;
    let poll: NodeJS.Timeout | undefined;
    let unsubscribe = (): void => undefined;
    const finish = (settle: () => void): void => {
      if (over) return;
      over = true;
      clearTimeout(deadline);
      clearTimeout(poll);
      unsubscribe();
      settle();
    };
    const fail = (err: unknown): void => finish(() => reject(err instanceof Error ? err : new Error(String(err))));
    /** Takes an answer: resolves on a truthy one, else asks again on the next event or poll. */
    const take = (answer: T): void => {
      last = answer;
      if (answer) return finish(() => resolve(answer as Truthy<T>));
      if (again) {
        again = false;
        check();
      } else if (!wake) {
        poll = setTimeout(check, everyMs);
      }
    };
    const check = (): void => {
      if (over) return;
      if (running) {
        again = true;
        return;
      }
      clearTimeout(poll);
      let answer: T | Promise<T>;
      try {
        answer = predicate();
      } catch (err) {
        return fail(err);
      }
      if (!(answer instanceof Promise)) return take(answer);
      running = true;
      answer.then(
        (settled) => ((running = false), take(settled)),
        (err: unknown) => ((running = false), fail(err)),
      );
    };
    const deadline = setTimeout(() => {
      if (seen) last = seen();
      finish(() => reject(new Error(`gave up after ${limitMs} ms waiting for ${what}; last seen: ${shown(last)}`)));
    }, limitMs);
    // An event wait is held open by what would wake it (a child process, a socket), not by its own deadline: one left
    // behind (the loser of a Promise.race) does not keep the test's process alive until the deadline. A polled wait
    // keeps its poll timer, so it is held open while it polls.
    if (wake) deadline.unref();
    if (wake) unsubscribe = wake(check);
    check();
  });
}

/** A value for the failure message: a long text by its end (where output that is awaited appears), the rest inspected. */
function shown(value: unknown): string {
  const text = inspect(value, { depth: 4, breakLength: Infinity, maxStringLength: Infinity });
  return text.length > 1500 ? `…${text.slice(-1500)}` : text;
}
