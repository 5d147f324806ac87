import type { AgentOutput } from '../../src/core/agent/types';
import { reportProgress, type ToolExtra } from '../lib/results';

/** A caller's silent-call timeout (60 s in the SDK) must not end a long model reply: say something this often. */
const HEARTBEAT_MS = 5_000;

/**
 * Progress notifications for a caller that sent a progress token: one per model call and one per
 * tool call (started, then finished), counting up, each with a line a person can read, and a
 * heartbeat while a model reply or a tool takes long.
 */
export class ProgressReporter {
  private count = 0;
  private last = Date.now();
  private doing = 'starting';
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly extra: ToolExtra,
    private readonly session: string,
  ) {
    if (extra._meta?.progressToken === undefined) return;
    this.timer = setInterval(() => {
      const quiet = Date.now() - this.last;
      if (quiet >= HEARTBEAT_MS - 100) this.send(`${this.doing} (${Math.round(quiet / 1000)} s)`, false);
    }, HEARTBEAT_MS);
    this.timer.unref();
  }

  modelCall(n: number): void {
    this.send(`model call ${n}`);
  }

  output(out: AgentOutput): void {
    if (out.type !== 'event') return;
    const e = out.event;
    if (e.kind === 'tool_call') this.send(`calling ${e.server}__${e.tool}`);
    else if (e.kind === 'tool_result') {
      this.send(`tool call ${e.isError ? 'failed' : 'done'} (${(e.durationMs / 1000).toFixed(1)} s)`, false);
      this.doing = 'working';
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private send(what: string, activity = true): void {
    if (activity) this.doing = what;
    this.last = Date.now();
    this.count += 1;
    reportProgress(this.extra, this.count, undefined, `${this.session}: ${what}`).catch(() => undefined);
  }
}
