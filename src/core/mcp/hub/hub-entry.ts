import type { RestartBudget } from './backoff';
import type { McpConnection } from '../session/connection';
import type { McpStartError } from '../session/errors';
import type { ServerLogSink, SinkLevel } from '../client/client-handlers';
import type { ServerConfig, ServerStatus } from '../types';

/** One configured server as the hub keeps it: its config, its connection, and its restart state. */
export interface Entry {
  config: ServerConfig;
  conn: McpConnection | undefined;
  budget: RestartBudget;
  restarts: number;
  /** Set while waiting to restart after a crash, or after giving up. */
  detail: string | undefined;
  gaveUp: string | undefined;
  timer: NodeJS.Timeout | undefined;
  /** Its connection's start() has not settled: an `error` then is not final (a restart may follow). */
  launching: boolean;
  /** Bumped on every (re)start so events of an old connection are ignored. */
  generation: number;
  /** Resources subscribed to; subscribed again after each restart. */
  subscriptions: Set<string>;
  sink: ServerLogSink | undefined;
  /** When it began starting (its first try of this start, retries included); undefined while not starting. */
  startingSince: number | undefined;
  /** The host the person was sent to sign in at during this start, once they said yes. */
  signingIn: string | undefined;
  /** Tries to start it so far in this start (0 before the first), and the limit the one under way was given. */
  attempts: number;
  limitMs: number;
  /** Why the last try failed, said while the next one runs. */
  lastFailure?: string;
}

/** Tries a start gets before it is given up on when the server does not answer initialize in time. */
const MAX_START_ATTEMPTS = 4;

/** The limit a try is given: the first's doubled on each retry, up to four times it (a cold `npx -y` download). */
export function attemptLimit(firstMs: number, attempt: number): number {
  return Math.min(firstMs * 2 ** Math.max(0, attempt - 1), firstMs * 4);
}

/** The server's status as the hub reports it: a restart pending or given up on shows over the connection's own. */
export function entryStatus(entry: Entry): ServerStatus {
  const base: ServerStatus = entry.conn?.status() ?? {
    name: entry.config.name,
    state: 'stopped',
    tools: [],
    resources: [],
    resourceTemplates: [],
    prompts: [],
  };
  const status: ServerStatus = { ...base, restarts: entry.restarts };
  if (entry.gaveUp) return { ...status, state: 'error', error: entry.gaveUp, pid: undefined };
  const starting = { startingSince: entry.startingSince, signingIn: entry.signingIn, attempt: { number: Math.max(1, entry.attempts), limitMs: entry.limitMs } };
  if (entry.timer) return { ...status, ...starting, state: 'starting', error: undefined, detail: entry.detail, pid: undefined };
  if (entry.launching && status.state === 'error') return { ...status, ...starting, state: 'starting', error: undefined, detail: entry.detail };
  const signingIn = entry.signingIn && `waiting for you to sign in at ${entry.signingIn}`;
  if (status.state === 'starting') return { ...status, ...starting, detail: entry.detail ?? signingIn };
  return status;
}

export function hubLog(entry: Entry, level: SinkLevel, text: string): void {
  entry.sink?.log(level, text);
}

/**
 * A process that exited may start next time, and one slow to answer initialize (a busy machine, a cold `npx -y`)
 * may answer with more time, up to MAX_START_ATTEMPTS tries; a URL that does not answer is retried only while
 * reconnecting a dropped session.
 */
export function retryable(err: McpStartError, entry: Entry): boolean {
  if (err.kind === 'timeout') return entry.attempts < MAX_START_ATTEMPTS;
  return err.kind === 'exited' || (err.kind === 'unreachable' && entry.budget.recent > 0);
}
