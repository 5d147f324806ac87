/** A signal that aborts when `ms` have passed or `outer` aborts, whichever comes first. */
export interface Deadline {
  readonly signal: AbortSignal;
  /** The wait is over: stops the timer and lets go of `outer`. */
  clear(): void;
}

/**
 * The time limit of a wait, as a signal. Not `AbortSignal.any([outer, AbortSignal.timeout(ms)])`: on Node 20
 * a garbage collection during the wait takes the timeout signal away, as only the composite refers to it and only
 * weakly, so the composite never aborts and the wait never ends (test/unit/deadline.test.ts shows it; the counts are
 * in bench/README.md). Node 22 ends them, but code-server's and VS Code 1.100's extension hosts run Node 20.
 * Here the timer holds the controller, and `outer`'s listener too until cleared. When the time is up it aborts with
 * a TimeoutError, as AbortSignal.timeout does.
 */
export function deadline(ms: number, outer?: AbortSignal): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), Math.max(0, ms));
  const stop = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) stop();
  else outer?.addEventListener('abort', stop, { once: true });
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', stop);
    },
  };
}
