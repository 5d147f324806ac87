/**
 * Runs a refresh per key at most once every `intervalMs`, however often it is poked: the first poke runs
 * at once, pokes while one is waiting or running are folded into one more run after it. A server that
 * updates a resource 100 times a second gets a handful of reads, and the last update is always read.
 */
export class RefreshThrottle<K> {
  private readonly keys = new Map<K, { timer: NodeJS.Timeout | undefined; running: boolean; again: boolean; last: number }>();
  private disposed = false;

  constructor(
    private readonly run: (key: K) => Promise<void>,
    private readonly intervalMs = 250,
  ) {}

  poke(key: K): void {
    if (this.disposed) return;
    const state = this.keys.get(key) ?? { timer: undefined, running: false, again: false, last: -Infinity };
    this.keys.set(key, state);
    if (state.running || state.timer) {
      state.again = true;
      return;
    }
    this.schedule(key, state);
  }

  /** Forgets a key (its document closed): a pending run is dropped. */
  forget(key: K): void {
    const state = this.keys.get(key);
    if (state) clearTimeout(state.timer);
    this.keys.delete(key);
  }

  dispose(): void {
    this.disposed = true;
    for (const key of [...this.keys.keys()]) this.forget(key);
  }

  private schedule(key: K, state: { timer: NodeJS.Timeout | undefined; running: boolean; again: boolean; last: number }): void {
    const wait = Math.max(0, state.last + this.intervalMs - performance.now());
    state.timer = setTimeout(() => {
      state.timer = undefined;
      state.again = false;
      state.running = true;
      state.last = performance.now();
      void this.run(key)
        .catch(() => undefined)
        .finally(() => {
          state.running = false;
          if (state.again && this.keys.get(key) === state && !this.disposed) this.schedule(key, state);
        });
    }, wait);
  }
}
