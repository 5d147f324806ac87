import { AsyncLocalStorage } from 'node:async_hooks';
import type { ClientCapabilities, LoggingLevel } from '@modelcontextprotocol/sdk/types.js';

/**
 * What a bundled server's own code reaches for outside a handler's `extra` (its log, the client's capabilities, a
 * question to the client), as it means inside one 2026-07-28 request. That era has no session: a log goes on the
 * request (at the level its `_meta` asks for), and a question ends the call with `input_required`, the call then
 * made again with the answer (modern-bridge.ts). Here, not in the bridge, so a 2025-11-25 server reads it without
 * loading the v2 package.
 */
export interface ModernCall {
  /** The capabilities the request's `_meta` declares (the era has no initialize to declare them once). */
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** A log on the request itself: sent when at or above the request's log level, else dropped. */
  log(level: LoggingLevel, data: unknown, logger: string): void;
  /**
   * Answered at once when the client answered it in an earlier round of this call; else the round ends asking it:
   * the call is made again from the start, or, once `holdFromHere` was called, goes on in this process when the
   * answer comes (a continuation). `signal` withdraws the question; `timeoutMs` is how long a held question waits.
   */
  ask(request: { method: string; params?: unknown }, options?: AskOptions): Promise<unknown>;
  /**
   * The handler has begun what running it again would do twice (a model call, a transcript written): from now on
   * a question keeps the call alive in this process until the answer comes, instead of ending it to be made again
   * (modern-continuation.ts).
   */
  holdFromHere(): void;
}

export interface AskOptions {
  signal?: AbortSignal;
  /** How long a held question waits for its answer (the asker's own timeout, as a 2025-11-25 request's). */
  timeoutMs?: number;
}

/** The name of the error a held call's signal is aborted with when nobody came back with the answer in time. */
export const UNANSWERED = 'UnansweredQuestion';

/**
 * One store per process, though this module is in two bundles (the server's and dist/servers/modern-era.js, which
 * the bridge is in): both find it under the same global symbol.
 */
const current = ((globalThis as Record<symbol, unknown>)[Symbol.for('mcp-agent/modern-call')] ??=
  new AsyncLocalStorage<ModernCall>()) as AsyncLocalStorage<ModernCall>;

/** Runs a v1 handler as the answer to one 2026-07-28 request: what it starts, awaits or schedules sees `call`. */
export function runAsModernCall<T>(call: ModernCall, run: () => T): T {
  return current.run(call, run);
}

/** The 2026-07-28 request being answered, or undefined in a 2025-11-25 session (or outside any request). */
export function modernCall(): ModernCall | undefined {
  return current.getStore();
}
