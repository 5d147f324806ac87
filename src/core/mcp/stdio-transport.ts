import type { ChildProcess } from 'node:child_process';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LinearReadBuffer } from './line-buffer';
import { ProgressTokens } from './progress-tokens';
import { StderrTail } from './stderr-tail';
import { markServerError } from './server-error';

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
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The SDK fields this class reaches into; checked at run time so an SDK upgrade fails loudly. */
interface SdkInternals {
  _readBuffer: unknown;
  _process?: ChildProcess;
}

/**
 * The SDK's stdio client transport with what a host needs on top (SDK 1.32):
 * - a linear, never-throwing read buffer instead of the SDK's quadratic one (line-buffer.ts);
 * - responses kept behind the notifications that preceded them (progress was being lost);
 * - stderr always piped into a bounded tail, never inherited (the extension host has no terminal);
 * - the child's exit code and signal, which the SDK drops, and `exited` resolving on exit even when
 *   a grandchild keeps stdout open (the SDK only reports 'close', which then never comes);
 * - close that really ends the child: the SDK ends stdin, waits 2 s, SIGTERMs, waits 2 s, SIGKILLs
 *   but does not wait for the kill; here the waits are `closeGraceMs` and close resolves only once
 *   the child has exited.
 */
export class HostStdioTransport extends StdioClientTransport {
  readonly stderrTail: StderrTail;
  private readonly graceMs: number;
  private childProcess: ChildProcess | undefined;
  private exitInfo: ExitInfo | undefined;
  private closing: Promise<void> | undefined;
  private readonly exitWaiters: Array<(info: ExitInfo) => void> = [];
  /** Called once when the child exits (after its stdout and stderr drained, or 200 ms later at most). */
  onexit?: (info: ExitInfo) => void;
  /** Called when the child closed its stdout but is still running 200 ms later: no answer can come any more. */
  onstdoutend?: () => void;
  private readonly progress = new ProgressTokens();

  constructor(params: HostStdioParams) {
    super({
      command: params.command,
      args: params.args,
      env: { ...getDefaultEnvironment(), ...params.env },
      cwd: params.cwd,
      stderr: 'pipe',
    });
    const internals = this as unknown as SdkInternals;
    if (!('_readBuffer' in internals)) throw new Error('MCP SDK internals changed: StdioClientTransport._readBuffer is gone');
    internals._readBuffer = new LinearReadBuffer({ maxMessageBytes: params.maxMessageBytes });
    this.graceMs = params.closeGraceMs ?? 2000;
    this.stderrTail = new StderrTail(params.stderrBytes);
    // Attached before start so nothing the server prints early is lost; consuming keeps the pipe drained.
    this.stderr?.on('data', (chunk: Buffer) => this.stderrTail.push(chunk));
  }

  override async start(): Promise<void> {
    // The SDK handles notifications one microtask late but responses at once, so a progress
    // notification that arrives in the same chunk as its response is dropped ("unknown token").
    // Handing responses over one microtask late too keeps the wire order.
    const deliver = this.onmessage;
    if (deliver) {
      this.onmessage = (message: JSONRPCMessage) => {
        if (!this.progress.admit(message)) return;
        if ('id' in message && !('method' in message)) queueMicrotask(() => deliver(markServerError(message)));
        else deliver(message);
      };
    }
    const started = super.start();
    // Spawned synchronously inside start(): take it now so pid and exit are known from the first moment.
    const child = (this as unknown as SdkInternals)._process;
    if (!child) {
      // spawn() threw at once (a NUL byte in an argument, a bad option): that is the error to report.
      await started;
      throw new Error('MCP SDK internals changed: StdioClientTransport._process is missing after start');
    }
    this.childProcess = child;
    this.watchExit(child);
    this.watchStdout(child);
    await started;
  }

  override send(message: JSONRPCMessage): Promise<void> {
    this.progress.sent(message);
    return super.send(message);
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

  get child(): ChildProcess | undefined {
    return this.childProcess;
  }

  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  /** Resolves with the exit code and signal once the child has exited. */
  exited(): Promise<ExitInfo> {
    if (this.exitInfo) return Promise.resolve(this.exitInfo);
    return new Promise((resolve) => this.exitWaiters.push(resolve));
  }

  override close(): Promise<void> {
    this.closing ??= this.terminate();
    return this.closing;
  }

  private async terminate(): Promise<void> {
    const child = this.childProcess;
    const alive = (): boolean => !!child && child.exitCode === null && child.signalCode === null;
    // The SDK's close ends stdin and waits for 'close'; it must start while the child is alive.
    const sdkClose = super.close().catch(() => undefined);
    if (child && alive()) {
      const exitedNow = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const waitExit = (ms: number): Promise<void> =>
        Promise.race([exitedNow, new Promise<void>((r) => setTimeout(r, ms).unref())]);
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
    // A grandchild may hold the pipes open: drop our ends so 'close' fires and nothing leaks.
    child?.stdout?.destroy();
    child?.stderr?.destroy();
    child?.stdin?.destroy();
    await sdkClose;
  }
}
