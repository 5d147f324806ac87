import type { ServerLogSink, SinkLevel } from './client-handlers';

/** What a LogOutputChannel offers for writing (kept to these so tests can stand in a recorder without vscode). */
export type LogWriter = Record<SinkLevel, (text: string) => void>;

export interface LogBatcherOptions {
  /** Characters held while the writer catches up; past this, new lines are counted, not kept. Default 4 MiB. */
  maxPendingChars?: number;
  /** Lines written per turn of the event loop, so a flood never holds it for long. Default 500. */
  perTurn?: number;
}

// Bounded by size, not lines: 10,000 short lines fit, while 10,000 of a server's 16 KiB messages would not.
const DEFAULT_MAX_PENDING_CHARS = 4 * 1024 * 1024;
const DEFAULT_PER_TURN = 500;

/**
 * A server's log sink that writes in bounded batches, one per turn of the event loop (after I/O, via
 * setImmediate): a server printing 10,000 lines at once costs the extension host many short turns instead of
 * one long one, and memory stays bounded. Lines beyond `maxPendingChars` are dropped and a line says how many.
 */
export class LogBatcher implements ServerLogSink {
  private pending: Array<[SinkLevel, string]> = [];
  private pendingChars = 0;
  private dropped = 0;
  private scheduled = false;
  private disposed = false;
  private readonly maxPendingChars: number;
  private readonly perTurn: number;

  /** `writer` is asked for at the first flush, so a server that never logs never gets a channel. */
  constructor(
    private readonly writer: () => LogWriter,
    options: LogBatcherOptions = {},
  ) {
    this.maxPendingChars = options.maxPendingChars ?? DEFAULT_MAX_PENDING_CHARS;
    this.perTurn = options.perTurn ?? DEFAULT_PER_TURN;
  }

  log(level: SinkLevel, text: string): void {
    if (this.disposed) return;
    if (this.pendingChars + text.length > this.maxPendingChars) this.dropped++;
    else {
      this.noteDropped();
      this.push(level, text);
    }
    this.schedule();
  }

  /** Stops taking lines; what is pending is written now. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.noteDropped();
    this.write(this.pending.length);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    if (this.disposed) return;
    if (this.pending.length < this.perTurn) this.noteDropped();
    this.write(this.perTurn);
    if (this.pending.length || this.dropped) this.schedule();
  }

  private push(level: SinkLevel, text: string): void {
    this.pending.push([level, text]);
    this.pendingChars += text.length;
  }

  /** Writes the first `count` pending lines. */
  private write(count: number): void {
    const lines = this.pending.splice(0, count);
    if (!lines.length) return;
    const w = this.writer();
    for (const [level, text] of lines) {
      this.pendingChars -= text.length;
      w[level](text);
    }
  }

  /** Where the dropped lines were, the log says how many: before the next line kept, or at the end. */
  private noteDropped(): void {
    if (!this.dropped) return;
    this.push('warn', `(${this.dropped} line${this.dropped === 1 ? '' : 's'} dropped: the server logged faster than its log could be written)`);
    this.dropped = 0;
  }
}
