import type { AgentOutput } from '../../src/core/agent/types';
import { reportProgress, type ToolExtra } from '../lib/results';

/**
 * Progress notifications for a caller that sent a progress token: one per model call and one per
 * tool call (started, then finished), counting up, each with a line a person can read.
 */
export class ProgressReporter {
  private count = 0;

  constructor(
    private readonly extra: ToolExtra,
    private readonly session: string,
  ) {}

  modelCall(n: number): void {
    this.send(`${this.session}: model call ${n}`);
  }

  output(out: AgentOutput): void {
    if (out.type !== 'event') return;
    const e = out.event;
    if (e.kind === 'tool_call') this.send(`${this.session}: calling ${e.server}__${e.tool}`);
    else if (e.kind === 'tool_result') this.send(`${this.session}: tool call ${e.isError ? 'failed' : 'done'} (${(e.durationMs / 1000).toFixed(1)} s)`);
  }

  note(message: string): void {
    this.send(`${this.session}: ${message}`);
  }

  private send(message: string): void {
    this.count += 1;
    reportProgress(this.extra, this.count, undefined, message).catch(() => undefined);
  }
}
