/**
 * What "Always for this server" allows a server's sampling: a number of tokens (input and output) for the
 * window's life, not an open tab on the person's key. Past it, the next request asks again, saying how much
 * was used; "Always" once more starts a new budget. A request runs without asking only when its output
 * limit fits what is left, counting the requests still running (their output limits are held until they end).
 */

/** One server's budget as a person is shown it. */
export interface BudgetUse {
  server: string;
  used: number;
  limit: number;
}

/** 100,000 tokens: dozens of ordinary sampling requests, a few dollars at most at Sonnet prices. */
export const DEFAULT_ALWAYS_BUDGET = 100_000;

interface Budget {
  used: number;
  /** Output limits of the requests running under it. */
  held: number;
}

export class SamplingBudgets {
  private readonly budgets = new Map<string, Budget>();

  constructor(
    readonly limit: number,
    private readonly changed: () => void = () => undefined,
  ) {}

  /** "Always": a new budget, whatever was used before. */
  grant(server: string): void {
    this.budgets.set(server, { used: 0, held: 0 });
    this.changed();
  }

  forget(server: string): void {
    if (this.budgets.delete(server)) this.changed();
  }

  has(server: string): boolean {
    return this.budgets.has(server);
  }

  /** True, and the output limit held, when a request may run without asking. */
  hold(server: string, maxTokens: number): boolean {
    const b = this.budgets.get(server);
    if (!b || b.used + b.held + maxTokens > this.limit) return false;
    b.held += maxTokens;
    return true;
  }

  /** A request ended: what it held is let go and what it used is counted (into the server's budget, if it has one). */
  settle(server: string, held: number, used: number): void {
    const b = this.budgets.get(server);
    if (!b) return;
    b.held = Math.max(0, b.held - held);
    b.used += used;
    this.changed();
  }

  /** How much of a server's budget is used, if it has one. */
  use(server: string): BudgetUse | undefined {
    const b = this.budgets.get(server);
    return b ? { server, used: b.used, limit: this.limit } : undefined;
  }

  all(): BudgetUse[] {
    return [...this.budgets.keys()].map((server) => this.use(server) as BudgetUse);
  }
}
