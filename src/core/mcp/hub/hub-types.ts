import type { BackoffOptions } from './backoff';
import type { ConnectionOptions } from '../session/connection';
import type { McpFailureKind } from '../session/errors';
import type { CallToolResult } from '../types';

export interface HubOptions {
  /** Passed to every connection (timeouts, roots, limits, log). */
  connection?: ConnectionOptions;
  /** Restarts after crashes. Defaults: 0.5 s, 1 s, 2 s…, at most 3 within 60 s. */
  restart?: BackoffOptions;
  /**
   * How long a server is given to answer initialize on its first try when its config does not say, read at each
   * start (a setting may change it). Default: the connection's `initializeTimeoutMs`, else 15 s.
   */
  startLimitMs?: () => number;
  /** 'change' events within this many ms are coalesced into one. Default 20. */
  changeDebounceMs?: number;
}

export interface HubEvents {
  /** A server's state or lists changed (coalesced). */
  change: () => void;
  /** A server said a resource changed (`notifications/resources/updated`), usually one subscribed to. */
  resourceUpdated: (server: string, uri: string) => void;
  [event: string]: (...args: never[]) => void;
}

/** `_meta` key on error results the hub makes: why the call failed (McpFailureKind or 'unknown-tool'). */
export const FAILURE_META_KEY = 'mcpAgent/failure';

/** An error result the hub makes (the call never reached a server, or failed on the way), marked with why. */
export function failure(kind: McpFailureKind | 'unknown-tool', message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true, _meta: { [FAILURE_META_KEY]: kind } };
}
