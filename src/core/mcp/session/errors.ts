import type { ExitInfo } from '../transport/stdio-transport';

/**
 * Why a request to a server failed, in words a person can act on. `kind` lets callers decide:
 * `timeout` and `cancelled` were cancelled on the server too (notifications/cancelled was sent),
 * `exited` means the server process died, `not-ready` that it never got the request, `server-error` that
 * the server answered with a JSON-RPC error (its code and message are in the text).
 */
export type McpFailureKind = 'timeout' | 'cancelled' | 'exited' | 'not-ready' | 'protocol' | 'server-error';

export class McpRequestError extends Error {
  override name = 'McpRequestError';
  constructor(
    readonly kind: McpFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Why starting a server failed. `exited` is worth a retry; `unreachable` (nothing answered at the URL) is
 * worth one while reconnecting a session that dropped; the others will fail the same way again.
 */
export type McpStartFailureKind = 'spawn' | 'timeout' | 'exited' | 'unreachable' | 'protocol';

export class McpStartError extends Error {
  override name = 'McpStartError';
  constructor(
    readonly kind: McpStartFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Raced against every request: rejects the moment the server's process (or HTTP session) is gone. */
export class ServerExited extends Error {
  override name = 'ServerExited';
  constructor(
    readonly info: ExitInfo,
    /** Set when the session ended without an exit (its stdout closed, its HTTP session dropped): the whole diagnosis. */
    readonly why?: string,
  ) {
    super(why ?? describeExit(info));
  }
}

export function describeExit(info: ExitInfo): string {
  if (info.signal) return `killed by ${info.signal}`;
  return `code ${info.code ?? 'unknown'}`;
}

export function withStderr(message: string, stderr: string): string {
  return stderr ? `${message}; last stderr: ${stderr}` : `${message} (it wrote nothing to stderr)`;
}

export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(ms < 1000 ? 2 : 1)} s`;
}
