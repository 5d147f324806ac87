/**
 * Aborts after `ms` without a reset(): how long a task may go without a sign of life (tasks.ts, task-ext/). Paused
 * while the person is being asked something for the task: their time to answer is not the server's silence.
 */
export class IdleTimer {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly ms: number) {
    this.reset();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  reset(): void {
    if (this.controller.signal.aborted) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.controller.abort(new Error('no sign of progress')), this.ms);
  }

  /** Stops counting until the next reset(). */
  pause(): void {
    clearTimeout(this.timer);
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}
