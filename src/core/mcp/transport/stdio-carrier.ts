import type { Carrier } from './carrier';
import { McpStartError, ServerExited, withStderr } from '../session/errors';
import { HostStdioTransport } from './stdio-transport';
import type { StdioServerConfig } from '../types';
import { messageOf } from '../../../node/error-message';

export interface StdioCarrierOptions {
  maxMessageBytes?: number;
  stderrBytes?: number;
  closeGraceMs?: number;
  /** True for a stdout line to drop before it is decoded (the session's log budget, log-flood.ts). */
  dropsLine?: (line: Buffer) => boolean;
}

/** A server as a child process speaking MCP on its stdin and stdout. */
export class StdioCarrier implements Carrier {
  readonly kind = 'stdio';
  readonly transport: HostStdioTransport;
  readonly target: string;
  onend?: (end: ServerExited) => void;
  onstderrline?: (line: string) => void;
  private endedWith: ServerExited | undefined;

  constructor(
    private readonly config: StdioServerConfig,
    options: StdioCarrierOptions = {},
  ) {
    this.target = config.command;
    this.transport = new HostStdioTransport({
      command: config.command,
      args: config.args,
      env: config.env,
      cwd: config.cwd,
      maxMessageBytes: options.maxMessageBytes,
      stderrBytes: options.stderrBytes,
      closeGraceMs: options.closeGraceMs,
      dropsLine: options.dropsLine,
    });
    this.transport.onstderrline = (line) => this.onstderrline?.(line);
    this.transport.onexit = (info) => this.end(new ServerExited(info));
    this.transport.onstdoutend = () => {
      if (this.transport.exit) return;
      const why = this.explain(`server ${config.name} closed its output (stdout) but kept running, so it can answer nothing more; it was stopped`);
      this.end(new ServerExited({ code: null, signal: null }, why));
      void this.transport.close();
    };
  }

  get pid(): number | undefined {
    return this.transport.child?.pid;
  }

  get ended(): ServerExited | undefined {
    return this.endedWith;
  }

  explain(message: string): string {
    return withStderr(message, this.tail());
  }

  tail(maxChars = 2000): string {
    return this.transport.stderrTail.text(maxChars);
  }

  tailBytes(): { held: number; total: number } {
    return { held: this.transport.stderrTail.held, total: this.transport.stderrTail.total };
  }

  diagnoseStart(err: unknown, server: string): McpStartError | undefined {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return undefined;
    const command = this.config.command;
    const hint =
      code === 'ENOENT'
        ? `command "${command}" was not found (check the path, or PATH: an editor started from the desktop may not see your shell's PATH)`
        : `could not run "${command}" (${code})`;
    return new McpStartError('spawn', `server ${server}: ${hint}: ${messageOf(err)}`, { cause: err });
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  /** Only the first end counts: an exit after "stdout closed" keeps that diagnosis. */
  private end(why: ServerExited): void {
    if (this.endedWith) return;
    this.endedWith = why;
    this.onend?.(why);
  }
}
