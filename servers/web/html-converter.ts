import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Markdown } from './html-to-markdown.js';
import type { ConversionReply, ConversionRequest } from './html-worker.js';
import { deadline } from '../../src/node/deadline';

/**
 * Converts HTML to markdown in worker threads, so the server keeps answering while a page converts,
 * and a conversion that outlives its deadline or is cancelled is stopped by terminating its
 * thread (JavaScript that is busy can't be interrupted any other way). A worker that converted a
 * typical page is kept for the next, since starting one costs more than converting such a page.
 *
 * Not piscina: it loads its own worker script from node_modules at run time, and the bundled
 * servers ship without node_modules.
 */

export interface HtmlConverterOptions {
  /** The script the workers run: dist/servers/web-html-worker.js (html-worker-main.ts). */
  workerFile: string;
  /**
   * Conversions running at once; more wait for a free worker (within their own deadline). They
   * are CPU-bound, so more than the cores gains nothing: default 2 to 4, by the cores.
   */
  maxWorkers?: number;
  /** An idle worker is stopped after this long. */
  idleMs?: number;
  /**
   * Heap limit of one worker: a page that needs more fails alone, without taking the server down.
   * Default 2048 MB: V8 sizes its heap by the limit, and below 2 GB it collects so often that a
   * page takes more CPU than on the main thread (bench/README.md).
   */
  maxHeapMb?: number;
}

export interface ConvertOptions {
  /** Cancels the conversion (the tool call's signal). */
  signal: AbortSignal;
  /** Time the conversion may take. */
  timeoutMs: number;
}

/** A conversion that failed for a reason a person should read; the message completes "the conversion ...". */
export class HtmlConversionError extends Error {
  override name = 'HtmlConversionError';
  constructor(
    message: string,
    readonly timedOut = false,
  ) {
    super(message);
  }
}

/** Pages up to this size leave their worker for the next one (most pages are well under). */
const REUSE_UP_TO_CHARS = 1_000_000;

export class HtmlConverter {
  private readonly idle: Worker[] = [];
  private readonly busy = new Set<Worker>();
  private readonly idleTimers = new Map<Worker, ReturnType<typeof setTimeout>>();
  /** Conversions holding a slot, and those waiting for one (each waiter is handed a slot directly). */
  private active = 0;
  private readonly queue: (() => void)[] = [];
  private readonly maxWorkers: number;
  private readonly idleMs: number;
  private readonly maxHeapMb: number;

  constructor(private readonly options: HtmlConverterOptions) {
    this.maxWorkers = options.maxWorkers ?? Math.min(4, Math.max(2, availableParallelism()));
    this.idleMs = options.idleMs ?? 30_000;
    this.maxHeapMb = options.maxHeapMb ?? 2048;
  }

  /** Worker threads alive now, idle or busy. */
  get workers(): number {
    return this.idle.length + this.busy.size;
  }

  async convert(html: string, base: URL, options: ConvertOptions): Promise<Markdown> {
    const limit = deadline(options.timeoutMs, options.signal);
    const signal = limit.signal;
    const stopped = (): Error =>
      options.signal.aborted ? (options.signal.reason as Error) : new HtmlConversionError(`did not finish within ${seconds(options.timeoutMs)}`, true);
    await this.acquire(signal).catch(() => {
      throw stopped();
    });
    const worker = this.take();
    try {
      const reply = await exchange(worker, { html, base: base.href }, signal);
      // A worker that converted a big page keeps the heap it grew to; a fresh one costs less.
      if (html.length <= REUSE_UP_TO_CHARS) this.putBack(worker);
      else await this.discard(worker);
      if (!reply.ok) throw new HtmlConversionError(`failed: ${reply.message}`);
      const { title, markdown, flattened } = reply;
      return { title, markdown, flattened };
    } catch (err) {
      if (this.busy.has(worker)) await this.discard(worker);
      if (signal.aborted) throw stopped();
      if (err instanceof HtmlConversionError) throw err;
      throw new HtmlConversionError(describeWorkerFailure(err, this.maxHeapMb));
    } finally {
      limit.clear();
      this.releaseSlot();
    }
  }

  /** Stops every worker (the server is closing). */
  async close(): Promise<void> {
    await Promise.all([...this.idle, ...this.busy].map((w) => this.discard(w)));
  }

  private acquire(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.active < this.maxWorkers) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        this.queue.splice(this.queue.indexOf(grant), 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.queue.push(grant);
    });
  }

  private releaseSlot(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.active--;
  }

  private take(): Worker {
    const worker = this.idle.pop() ?? this.spawn();
    clearTimeout(this.idleTimers.get(worker));
    this.idleTimers.delete(worker);
    worker.ref();
    this.busy.add(worker);
    return worker;
  }

  private spawn(): Worker {
    const worker = new Worker(this.options.workerFile, {
      resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb },
      // stdout carries the MCP protocol: whatever a worker prints goes to stderr instead.
      stdout: true,
      stderr: true,
    });
    worker.stdout.pipe(process.stderr, { end: false });
    worker.stderr.pipe(process.stderr, { end: false });
    // A worker that dies while idle (it should not) is simply forgotten.
    worker.once('exit', () => this.forget(worker));
    worker.on('error', () => undefined);
    return worker;
  }

  /** Keeps one finished worker for the next page; any more are stopped. */
  private putBack(worker: Worker): void {
    this.busy.delete(worker);
    if (this.idle.length > 0) {
      void worker.terminate();
      return;
    }
    worker.unref();
    this.idle.push(worker);
    const timer = setTimeout(() => void this.discard(worker), this.idleMs);
    timer.unref();
    this.idleTimers.set(worker, timer);
  }

  private async discard(worker: Worker): Promise<void> {
    this.forget(worker);
    await worker.terminate();
  }

  private forget(worker: Worker): void {
    clearTimeout(this.idleTimers.get(worker));
    this.idleTimers.delete(worker);
    const index = this.idle.indexOf(worker);
    if (index >= 0) this.idle.splice(index, 1);
    this.busy.delete(worker);
  }
}

/** Sends one request and waits for its reply, the worker's death, or the signal. */
function exchange(worker: Worker, request: ConversionRequest, signal: AbortSignal): Promise<ConversionReply> {
  return new Promise((resolve, reject) => {
    const done = (): void => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      signal.removeEventListener('abort', onAbort);
    };
    const onMessage = (reply: ConversionReply): void => {
      done();
      resolve(reply);
    };
    const onError = (err: Error): void => {
      done();
      reject(err);
    };
    const onExit = (code: number): void => {
      done();
      reject(new Error(`the conversion worker exited (code ${code})`));
    };
    const onAbort = (): void => {
      done();
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    signal.addEventListener('abort', onAbort, { once: true });
    worker.postMessage(request);
  });
}

function describeWorkerFailure(err: unknown, maxHeapMb: number): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY') return `needed more than ${maxHeapMb} MB of memory`;
  return `failed: ${e?.message ?? String(err)}`;
}

function seconds(ms: number): string {
  return `${+(ms / 1000).toFixed(1)} s`;
}
