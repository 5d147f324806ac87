import type { JSONRPCMessage } from '@modelcontextprotocol/client';

export interface LogFloodOptions {
  /** Log lines a server may send each second, on average. Default 1,000. */
  perSecond?: number;
  /** Lines it may send at once before the rate applies (a server's start-up chatter). Default 10,000. */
  burst?: number;
  /** Told how many lines were dropped since the last report, at most once per `reportMs`, and at close. */
  report(dropped: number, perSecond: number): void;
  /** How often a report may come while lines are dropped. Default 1 s. */
  reportMs?: number;
  now?(): number;
}

const DEFAULT_PER_SECOND = 1_000;
const DEFAULT_BURST = 10_000;
const DEFAULT_REPORT_MS = 1_000;
/** The bytes of a line that can hold where a log notification names its method (whitespace and `"jsonrpc":"2.0"` allowed first). */
const HEAD_BYTES = 96;
/**
 * A stdout line that is a log notification, as every MCP SDK writes one: the method first (TypeScript's
 * spread puts `jsonrpc` last), or right after `"jsonrpc":"2.0"` (Python, Go, Rust, Java). A line in any
 * other key order is parsed as usual and counted by `admit` after the parse.
 */
const LOG_LINE = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"method"\s*:\s*"notifications\/message"/;

/**
 * One server's log budget (a token bucket over its `notifications/message`). A server
 * that logs 200,000 lines at once made a tool call on it take seconds: every line was decoded, parsed,
 * schema-checked twice and queued before the answer behind them was read. Past the budget a log line
 * costs one look at its first bytes (`dropsLine`, before it is even decoded) and a count; the count is
 * reported, so the log says how many lines are missing. Stderr is not counted: it is read apart from the
 * session's messages, so it cannot hold up an answer, and its log sink bounds it already (log-batcher.ts).
 */
export class LogFlood {
  private readonly perSecond: number;
  private readonly burst: number;
  private readonly reportMs: number;
  private readonly now: () => number;
  private tokens: number;
  private refilledAt: number;
  private dropped = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Every line dropped in this session, reported or not. */
  droppedTotal = 0;

  constructor(private readonly options: LogFloodOptions) {
    this.perSecond = options.perSecond ?? DEFAULT_PER_SECOND;
    this.burst = options.burst ?? DEFAULT_BURST;
    this.reportMs = options.reportMs ?? DEFAULT_REPORT_MS;
    this.now = options.now ?? (() => performance.now());
    this.tokens = this.burst;
    this.refilledAt = this.now();
  }

  /**
   * For a raw stdout line, before it is decoded: true to drop it (a log notification with no budget
   * left). It only looks: a line kept is counted by `admit` once parsed, so it is never counted twice.
   */
  dropsLine(line: Buffer): boolean {
    if (this.available() >= 1 || !LOG_LINE.test(line.toString('latin1', 0, Math.min(line.length, HEAD_BYTES)))) return false;
    this.drop();
    return true;
  }

  /** For a parsed message: false for a log notification over the budget (anything else passes). */
  admit(message: JSONRPCMessage): boolean {
    if (!('method' in message) || message.method !== 'notifications/message' || 'id' in message) return true;
    return this.take();
  }

  /** Reports what is left to report and stops the timer (the session ended). */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flush();
  }

  private take(): boolean {
    if (this.available() >= 1) {
      this.tokens--;
      return true;
    }
    this.drop();
    return false;
  }

  private available(): number {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond);
    this.refilledAt = now;
    return this.tokens;
  }

  private drop(): void {
    this.dropped++;
    this.droppedTotal++;
    // One timer per reporting period, not per line: a flood costs a count, not a timer each.
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.reportMs);
    this.timer.unref();
  }

  private flush(): void {
    if (this.dropped === 0) return;
    const n = this.dropped;
    this.dropped = 0;
    this.options.report(n, this.perSecond);
  }
}
