import { randomBytes } from 'node:crypto';
import type { InputRequest, ServerContext } from '@modelcontextprotocol/server';
import type { ClientCapabilities, LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { fingerprint } from './fingerprint';
import { UNANSWERED, type AskOptions, type ModernCall } from './modern-call';

/** How long a held question waits when its asker gave no time of its own (the orchestrator gives a person 10 minutes). */
const DEFAULT_HOLD_MS = 10 * 60_000;

/** Where a round of a call ends: the handler's own end, or a question for the client. */
export type Stop =
  | { kind: 'result'; value: unknown }
  | { kind: 'error'; error: unknown }
  /** `held`: the handler waits in this process for the answer (a continuation); else it was stopped, to run again. */
  | { kind: 'question'; key: string; request: InputRequest; held: boolean };

/** What the handler's `extra` reaches through: the round being answered now, whichever that is. */
export interface RoundRelay {
  readonly signal: AbortSignal;
  /** The current round's `_meta` (its progress token); undefined between rounds. */
  readonly meta: Record<string, unknown> | undefined;
  notify(notification: { method: string; params?: unknown }): Promise<void>;
}

interface HeldQuestion {
  key: string;
  request: InputRequest;
  timeoutMs: number;
  resolve: (answer: unknown) => void;
  reject: (err: unknown) => void;
}

/** The calls held open in this process, by the id their requestState names. */
const held = new Map<string, LiveCall>();

/** The held call a requestState names, if this process has it (another process, or one restarted, does not). */
export function heldCall(id: string): LiveCall | undefined {
  return held.get(id);
}

/**
 * One 2026-07-28 call's handler run, across its rounds. Until the handler says it has begun what a rerun would
 * repeat (`holdFromHere`), a question it asks stops it, and the call is made again with the answer (modern-rounds.ts
 * replays the answers). After, a question keeps it running: the round ends asking, the call is registered under a
 * random id (a continuation, named in the signed requestState), and the round that brings the answer hands it over
 * and waits for the next stop. Its progress and logs go to the round being answered now; nobody's between rounds.
 * A continuation nobody comes back for is aborted when its question's time is up; a round cancelled aborts it too.
 */
export class LiveCall {
  readonly controller = new AbortController();
  readonly modern: ModernCall;
  readonly relay: RoundRelay;
  private round: ServerContext | undefined;
  private holding = false;
  private replayQuestion: { key: string; request: InputRequest } | undefined;
  private readonly queue: HeldQuestion[] = [];
  private outcome: Stop | undefined;
  private wake: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly times = new Map<string, number>();
  private id: string | undefined;

  constructor(
    clientCapabilities: ClientCapabilities | undefined,
    /** The answers of earlier rounds, replayed to a handler made again. */
    private readonly answers: ReadonlyMap<string, unknown>,
  ) {
    this.modern = {
      clientCapabilities,
      log: (level, data, logger) => this.log(level, data, logger),
      ask: (input, options) => this.ask(input, options),
      holdFromHere: () => void (this.holding = true),
    };
    const current = (): ServerContext | undefined => this.round;
    this.relay = {
      signal: this.controller.signal,
      get meta() {
        return current()?.mcpReq._meta as Record<string, unknown> | undefined;
      },
      notify: (notification) => this.notify(notification),
    };
  }

  /** Runs the handler; its end is a stop like a question. */
  start(run: () => Promise<unknown>): void {
    run().then(
      (value) => this.settle({ kind: 'result', value }),
      (error: unknown) => this.settle({ kind: 'error', error }),
    );
  }

  /** The key of the question the client was asked last and has not answered, if any. */
  asking(): string | undefined {
    return this.queue[0]?.key;
  }

  /** The client's answer to the question it was asked (asking()): the handler goes on with it. */
  answer(value: unknown): void {
    this.queue.shift()?.resolve(value);
  }

  /**
   * Serves one round: the call's progress, logs and cancellation are this request's until the next stop, which the
   * round answers. A held question registers the call (once) and starts the clock on its answer.
   */
  async serve(ctx: ServerContext): Promise<{ stop: Stop; id?: string }> {
    clearTimeout(this.timer);
    this.round = ctx;
    const cancel = (): void => this.controller.abort(ctx.mcpReq.signal.reason);
    if (ctx.mcpReq.signal.aborted) cancel();
    ctx.mcpReq.signal.addEventListener('abort', cancel, { once: true });
    try {
      const stop = await new Promise<Stop>((resolve) => {
        this.wake = () => {
          const now = this.stopNow();
          if (now) resolve(now);
        };
        this.wake();
      });
      this.wake = undefined;
      if (stop.kind !== 'question' || !stop.held) {
        this.forget();
        return { stop };
      }
      return { stop, id: this.keep(this.queue[0]?.timeoutMs ?? DEFAULT_HOLD_MS) };
    } finally {
      ctx.mcpReq.signal.removeEventListener('abort', cancel);
      this.round = undefined;
    }
  }

  private stopNow(): Stop | undefined {
    // A handler stopped to be made again ends in an abort error; the question is what the round answers.
    if (this.replayQuestion) return { kind: 'question', ...this.replayQuestion, held: false };
    if (this.outcome) return this.outcome;
    const head = this.queue[0];
    return head && { kind: 'question', key: head.key, request: head.request, held: true };
  }

  private ask(input: { method: string; params?: unknown }, options: AskOptions = {}): Promise<unknown> {
    // The same question asked twice in a call is two questions: its place among its like tells them apart.
    const base = fingerprint(input);
    const n = this.times.get(base) ?? 0;
    this.times.set(base, n + 1);
    const key = `${base}.${n}`;
    if (this.answers.has(key)) return Promise.resolve(this.answers.get(key));
    if (!this.holding) {
      if (!this.replayQuestion) {
        this.replayQuestion = { key, request: input as InputRequest };
        this.controller.abort(new Error('the client is asked first; the call is made again with its answer'));
        this.wake?.();
      }
      return Promise.reject(this.controller.signal.reason as Error);
    }
    return this.hold(key, input as InputRequest, options);
  }

  /** A question the handler waits for in this process: asked by the current round, or the next one. */
  private hold(key: string, request: InputRequest, options: AskOptions): Promise<unknown> {
    const signals = [this.controller.signal, ...(options.signal ? [options.signal] : [])];
    const stopped = signals.find((s) => s.aborted);
    if (stopped) return Promise.reject(stopped.reason as Error);
    return new Promise((resolve, reject) => {
      const withdraw = (): void => {
        const at = this.queue.indexOf(question);
        if (at >= 0) this.queue.splice(at, 1);
        reject((signals.find((s) => s.aborted)?.reason as Error | undefined) ?? new Error('the question was withdrawn'));
      };
      const done = (): void => signals.forEach((s) => s.removeEventListener('abort', withdraw));
      const question: HeldQuestion = {
        key,
        request,
        timeoutMs: options.timeoutMs ?? DEFAULT_HOLD_MS,
        resolve: (answer) => {
          done();
          resolve(answer);
        },
        reject: (err) => {
          done();
          reject(err);
        },
      };
      signals.forEach((s) => s.addEventListener('abort', withdraw, { once: true }));
      this.queue.push(question);
      this.wake?.();
    });
  }

  private settle(outcome: Stop): void {
    this.outcome = outcome;
    if (this.wake) this.wake();
    // Nobody is waiting for it (expired, or the process is stopping): what it answers is nobody's.
    else this.forget();
  }

  /** Registers the call under its id, and aborts it if its question is not answered in time. */
  private keep(timeoutMs: number): string {
    this.id ??= randomBytes(16).toString('base64url');
    held.set(this.id, this);
    this.timer = setTimeout(() => this.expire(timeoutMs), timeoutMs);
    this.timer.unref();
    return this.id;
  }

  private expire(timeoutMs: number): void {
    const within = timeoutMs < 120_000 ? `${Math.round(timeoutMs / 1000)} s` : `${Math.round(timeoutMs / 60_000)} minutes`;
    const err = Object.assign(new Error(`nobody answered the question within ${within}, so the call was stopped`), { name: UNANSWERED });
    this.forget();
    this.controller.abort(err);
    for (const q of this.queue.splice(0)) q.reject(err);
  }

  private forget(): void {
    clearTimeout(this.timer);
    if (this.id !== undefined) held.delete(this.id);
  }

  private log(level: LoggingLevel, data: unknown, logger: string): void {
    void this.round?.mcpReq.log(level, data, logger).catch(() => undefined);
  }

  /** A notification of the handler, on the current round; progress with that round's own token. */
  private notify(notification: { method: string; params?: unknown }): Promise<void> {
    const round = this.round;
    if (!round) return Promise.resolve();
    let sent = notification;
    if (notification.method === 'notifications/progress') {
      const token = (round.mcpReq._meta as { progressToken?: unknown } | undefined)?.progressToken;
      if (token === undefined) return Promise.resolve();
      sent = { ...notification, params: { ...(notification.params as object), progressToken: token } };
    }
    return round.mcpReq.notify(sent as Parameters<ServerContext['mcpReq']['notify']>[0]);
  }
}
