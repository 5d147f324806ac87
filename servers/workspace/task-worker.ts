import { Worker, type ResourceLimits } from 'node:worker_threads';
import { ToolError } from '../lib/results';
import type { WorkerRole, WorkerMessage } from './worker-protocol';

/** How a task run in a worker ended, when it did not simply finish. */
export type TaskStop = 'timeout' | 'cancelled' | 'out-of-memory' | 'crashed';

/** A new thread loads the bundle (about 0.1 s, more on a busy machine) before its first task starts. */
const STARTUP_GRACE_MS = 10_000;

export class TaskStopped extends Error {
  constructor(
    readonly why: TaskStop,
    detail: string,
  ) {
    super(detail);
  }
}

export interface TaskOptions<P> {
  /** The task is stopped (its worker terminated) after this long. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Progress the task posts; `restartTimer(ms)` gives it `ms` more from now (a new phase). */
  onProgress?: (progress: P, restartTimer: (ms: number) => void) => void;
}

/**
 * One worker thread that runs tasks one at a time, and can be stopped mid-task: a task that does
 * not end in time, or whose caller cancels, has its thread terminated (V8 interrupts even a tight
 * loop or a running regular expression or WebAssembly call). A stopped worker is spent; callers
 * make a new one.
 *
 * The worker runs this same bundle (`__filename`); main.ts sees it is not the main thread and
 * serves the role named in workerData instead of starting the MCP server.
 */
export class TaskWorker {
  private readonly worker: Worker;
  private busy = false;
  private dead = false;
  private exitError: (Error & { code?: string }) | undefined;
  /** Stops the task under way; set while one runs. */
  private stopCurrent: ((why: TaskStop, detail: string) => void) | undefined;

  constructor(role: WorkerRole, resourceLimits?: ResourceLimits) {
    this.worker = new Worker(__filename, { workerData: { role }, resourceLimits, stdout: true, stderr: true });
    // The process's stdout is the MCP stream: nothing a worker prints may reach it.
    this.worker.stdout.pipe(process.stderr);
    this.worker.stderr.pipe(process.stderr);
    this.worker.on('error', (err) => {
      this.exitError = err;
    });
    this.worker.once('exit', () => {
      this.dead = true;
      const err = this.exitError;
      if (err?.code === 'ERR_WORKER_OUT_OF_MEMORY') this.stopCurrent?.('out-of-memory', err.message);
      else this.stopCurrent?.('crashed', err?.message ?? 'the worker thread exited');
    });
    this.worker.unref();
  }

  get alive(): boolean {
    return !this.dead;
  }

  get idle(): boolean {
    return !this.busy && !this.dead;
  }

  /** Runs one task; rejects with TaskStopped when it had to be stopped, ToolError when it failed cleanly. */
  run<R, P = never>(input: unknown, opts: TaskOptions<P>, transfer: ArrayBuffer[] = []): Promise<R> {
    if (this.busy || this.dead) throw new Error('TaskWorker: not idle');
    this.busy = true;
    this.worker.ref();
    return new Promise<R>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const finish = (): void => {
        settled = true;
        this.busy = false;
        this.stopCurrent = undefined;
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        this.worker.off('message', onMessage);
        if (!this.dead) this.worker.unref();
      };
      const stop = (why: TaskStop, detail: string): void => {
        if (settled) return;
        finish();
        this.terminate();
        reject(new TaskStopped(why, detail));
      };
      const restartTimer = (ms: number): void => {
        clearTimeout(timer);
        timer = setTimeout(() => stop('timeout', `stopped after ${ms} ms`), ms);
      };
      const onAbort = (): void => stop('cancelled', 'cancelled');
      const onMessage = (m: WorkerMessage): void => {
        if (settled) return;
        if (m.type === 'started') {
          restartTimer(opts.timeoutMs); // the limit is the task's own time, not the thread's start
        } else if (m.type === 'progress') {
          opts.onProgress?.(m.progress as P, restartTimer);
        } else if (m.type === 'done') {
          finish();
          resolve(m.result as R);
        } else {
          finish();
          reject(m.toolError ? new ToolError(m.message) : new Error(m.message));
        }
      };
      this.stopCurrent = stop;
      if (opts.signal?.aborted) {
        stop('cancelled', 'cancelled');
        return;
      }
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.worker.on('message', onMessage);
      restartTimer(opts.timeoutMs + STARTUP_GRACE_MS);
      this.worker.postMessage(input, transfer);
    });
  }

  terminate(): void {
    this.dead = true;
    void this.worker.terminate();
  }
}

/**
 * Workers for tasks that keep no state between them: one idle worker is kept (starting a thread
 * and loading the bundle costs far more than a warm worker's answer), more are
 * started when tasks overlap.
 */
export class WorkerPool {
  private readonly idle: TaskWorker[] = [];

  constructor(
    private readonly role: WorkerRole,
    private readonly resourceLimits?: ResourceLimits,
    private readonly keepIdle = 1,
  ) {}

  async run<R, P = never>(input: unknown, opts: TaskOptions<P>): Promise<R> {
    let worker = this.idle.pop();
    while (worker && !worker.idle) worker = this.idle.pop();
    worker ??= new TaskWorker(this.role, this.resourceLimits);
    try {
      return await worker.run<R, P>(input, opts);
    } finally {
      if (worker.idle && this.idle.length < this.keepIdle) this.idle.push(worker);
      else if (worker.alive) worker.terminate();
    }
  }
}
