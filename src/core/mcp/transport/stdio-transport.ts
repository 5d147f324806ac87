import type { ChildProcess } from 'node:child_process';
import spawn from 'cross-spawn';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { LinearReadBuffer } from './line-buffer';
import { StderrLines } from './stderr-lines';
import { StderrTail } from './stderr-tail';

export interface HostStdioParams {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Largest single message from the server, in bytes (see line-buffer.ts). */
  maxMessageBytes?: number;
  /** Bytes of stderr kept for diagnoses. */
  stderrBytes?: number;
  /** How long each step of close waits (stdin EOF, then SIGTERM) before the next, in ms. */
  closeGraceMs?: number;
  /** True for a stdout line to drop unread (a log flood past its budget, log-flood.ts). */
  dropsLine?: (line: Buffer) => boolean;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * MCP over a child process's stdin and stdout, as the SDK `Transport` (written here rather than
 * patching the SDK's StdioClientTransport, whose internals this host needs to change):
 * - a linear, never-throwing read buffer instead of the SDK's quadratic one (line-buffer.ts);
 * - stderr always piped into a bounded tail, never inherited (the extension host has no terminal);
 * - the child's exit code and signal, and `onexit` firing on exit even when a grandchild keeps
 *   stdout open (a bare 'close' then never comes);
 * - close that really ends the child: stdin EOF, `closeGraceMs`, SIGTERM, `closeGraceMs`, SIGKILL,
 *   and it resolves only once the child has exited.
 * Spawned with cross-spawn, as the SDK does, so `npx` and other `.cmd` shims run on Windows without a shell.
 */
export class HostStdioTransport implements Transport {
  readonly stderrTail: StderrTail;
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** Called once when the child exits (after its stdout and stderr drained, or 200 ms later at most). */
  onexit?: (info: ExitInfo) => void;
  /** Called when the child closed its stdout but is still running 200 ms later: no answer can come any more. */
  onstdoutend?: () => void;
  /** Each line the child writes to stderr (bounded in length), for its log. */
  onstderrline?: (line: string) => void;
  private readonly stderrLines = new StderrLines((line) => this.onstderrline?.(line));
  private readonly graceMs: number;
  private readonly readBuffer: LinearReadBuffer;
  private childProcess: ChildProcess | undefined;
  private exitInfo: ExitInfo | undefined;
  private closing: Promise<void> | undefined;
  private closedReported = false;
  private readonly exitWaiters: Array<(info: ExitInfo) => void> = [];

  constructor(private readonly params: HostStdioParams) {
    this.graceMs = params.closeGraceMs ?? 2000;
    this.stderrTail = new StderrTail(params.stderrBytes);
    this.readBuffer = new LinearReadBuffer({ maxMessageBytes: params.maxMessageBytes, skip: params.dropsLine });
  }

  /** Spawns the child; resolves once it runs, rejects when it cannot be started (ENOENT, EACCES). */
  async start(): Promise<void> {
    if (this.childProcess) throw new Error('HostStdioTransport already started');
    // spawn() itself throws for some bad input (a NUL byte in an argument): that rejects start too.
    const child = spawn(this.params.command, this.params.args, {
      env: { ...getDefaultEnvironment(), ...this.params.env },
      cwd: this.params.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      windowsHide: process.platform === 'win32',
    });
    // Taken at once so pid and exit are known from the first moment, even while starting.
    this.childProcess = child;
    // Attached before anything can be written, so nothing the server prints early is lost; consuming keeps the pipe drained.
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail.push(chunk);
      this.stderrLines.push(chunk);
    });
    child.stderr?.on('end', () => this.stderrLines.end());
    child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
    child.stdout?.on('error', (err) => this.onerror?.(err));
    child.stdin?.on('error', (err) => this.onerror?.(err));
    child.once('close', () => this.reportClosed());
    this.watchExit(child);
    this.watchStdout(child);
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (err) => {
        reject(err);
        this.onerror?.(err);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.childProcess?.stdin;
    if (!stdin || stdin.destroyed || this.exitInfo) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else stdin.once('drain', resolve);
    });
  }

  get child(): ChildProcess | undefined {
    return this.childProcess;
  }

  /** The child's process id while it runs. */
  get pid(): number | null {
    return this.childProcess?.pid ?? null;
  }

  /** Never handed out: the host reads stderr itself (stderrTail, onstderrline). Present so the SDK sees a stdio transport. */
  get stderr(): null {
    return null;
  }

  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  /** Resolves with the exit code and signal once the child has exited. */
  exited(): Promise<ExitInfo> {
    if (this.exitInfo) return Promise.resolve(this.exitInfo);
    return new Promise((resolve) => this.exitWaiters.push(resolve));
  }

  close(): Promise<void> {
    this.closing ??= this.terminate();
    return this.closing;
  }

  private read(chunk: Buffer): void {
    this.readBuffer.append(chunk);
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.readBuffer.readMessage();
      } catch (err) {
        // A line that is not JSON-RPC (a chatty server): reported, skipped, the session goes on.
        this.onerror?.(err as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  /** A closed stdout with the process still running: every pending request would wait for its timeout. */
  private watchStdout(child: ChildProcess): void {
    child.stdout?.once('close', () => {
      setTimeout(() => {
        if (!this.exitInfo && !this.closing && child.exitCode === null && child.signalCode === null) this.onstdoutend?.();
      }, 200).unref();
    });
  }

  private watchExit(child: ChildProcess): void {
    child.once('exit', (code, signal) => {
      const info: ExitInfo = { code, signal };
      // Let the last stdout bytes (a reply written just before exit) reach the client first.
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.exitInfo = info;
        for (const w of this.exitWaiters.splice(0)) w(info);
        this.onexit?.(info);
      };
      const timer = setTimeout(finish, 200);
      const open = [child.stdout, child.stderr].filter((s) => s && !s.destroyed && !s.readableEnded);
      let left = open.length;
      if (left === 0) finish();
      for (const s of open) s?.once('close', () => --left === 0 && setImmediate(finish));
    });
  }

  private reportClosed(): void {
    if (this.closedReported) return;
    this.closedReported = true;
    this.readBuffer.clear();
    this.onclose?.();
  }

  private async terminate(): Promise<void> {
    const child = this.childProcess;
    const alive = (): boolean => !!child && child.exitCode === null && child.signalCode === null;
    if (child && alive()) {
      const exitedNow = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const waitExit = (ms: number): Promise<void> => Promise.race([exitedNow, new Promise<void>((r) => setTimeout(r, ms).unref())]);
      try {
        child.stdin?.end();
      } catch {
        // Already gone: the signals below still apply.
      }
      await waitExit(this.graceMs);
      if (alive()) {
        child.kill('SIGTERM');
        await waitExit(this.graceMs);
      }
      if (alive()) {
        child.kill('SIGKILL');
        await waitExit(5000);
      }
    }
    // A grandchild may hold the pipes open: drop our ends so nothing leaks.
    child?.stdout?.destroy();
    child?.stderr?.destroy();
    child?.stdin?.destroy();
    this.reportClosed();
  }
}
