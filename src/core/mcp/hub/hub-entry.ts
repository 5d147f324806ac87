import type { RestartBudget } from './backoff';
import type { McpConnection } from '../connection';
import type { McpStartError } from '../errors';
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
  if (entry.timer) return { ...status, state: 'starting', error: undefined, detail: entry.detail, pid: undefined };
  if (entry.launching && status.state === 'error') return { ...status, state: 'starting', error: undefined };
  return status;
}

export function hubLog(entry: Entry, level: SinkLevel, text: string): void {
  entry.sink?.log(level, text);
}

/** A process that exited may start next time; a URL that does not answer is retried only while reconnecting a dropped session. */
export function retryable(err: McpStartError, entry: Entry): boolean {
  return err.kind === 'exited' || (err.kind === 'unreachable' && entry.budget.recent > 0);
}
