export interface BackoffOptions {
  /** Delay before the first restart. Default 500 ms; each further one doubles it. */
  baseDelayMs?: number;
  /** The longest delay. Default 8 s. */
  maxDelayMs?: number;
  /** Restarts allowed within `windowMs`; one more crash and we give up. Default 3. */
  maxRestarts?: number;
  /** Default 60 s. */
  windowMs?: number;
}

/** Capped exponential backoff with a budget of restarts per time window. */
export class RestartBudget {
  private times: number[] = [];
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly maxRestarts: number;
  readonly windowMs: number;

  constructor(
    options: BackoffOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.baseDelayMs = options.baseDelayMs ?? 500;
    this.maxDelayMs = options.maxDelayMs ?? 8000;
    this.maxRestarts = options.maxRestarts ?? 3;
    this.windowMs = options.windowMs ?? 60_000;
  }

  /** Takes one restart from the budget: the delay to wait, or undefined when none is left. */
  next(): number | undefined {
    const t = this.now();
    this.times = this.times.filter((s) => t - s < this.windowMs);
    if (this.times.length >= this.maxRestarts) return undefined;
    const delay = Math.min(this.baseDelayMs * 2 ** this.times.length, this.maxDelayMs);
    this.times.push(t);
    return delay;
  }

  /** Restarts taken within the window. */
  get recent(): number {
    const t = this.now();
    return this.times.filter((s) => t - s < this.windowMs).length;
  }

  reset(): void {
    this.times = [];
  }
}
