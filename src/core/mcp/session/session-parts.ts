import type { Client } from '@modelcontextprotocol/client';
import type { ServerLogSink } from '../client/client-handlers';
import type { ConnectionOptions } from './connection-types';
import type { ServerExited } from './errors';
import { makeSessionClient, type SessionClientEvents } from './session-client';
import type { Carrier } from '../transport/carrier';
import { GuardedTransport } from '../transport/guarded-transport';
import { carrierFor } from '../transport/launch';
import { LogFlood } from '../transport/log-flood';
import type { ServerConfig } from '../types';

/** What one session of a server is made of, before it connects: how it is carried, its client, and the guard between. */
export interface SessionParts {
  flood: LogFlood;
  carrier: Carrier;
  client: Client;
  guarded: GuardedTransport;
}

export interface SessionWiring {
  clientInfo: { name: string; version: string };
  sink: ServerLogSink | undefined;
  /** The envelope of a request sent before the session (the HTTP sign-in probe); unset: the era is known to be 2025-11-25. */
  probeMeta: Record<string, unknown> | undefined;
  /** What the client reports (list changes, resource updates, roots asked, errors). */
  events: SessionClientEvents;
  /** The session's carrier ended: the process exited, its stdout closed, or the HTTP session was lost. */
  onEnd(end: ServerExited): void;
  log(line: string): void;
}

/**
 * A new session's parts for `config`: a log-flood budget for its notifications, its carrier (a child process or an
 * HTTP endpoint, launch.ts) with stderr to the server's log, the v2 client with the host's handlers
 * (session-client.ts), and the transport guard between them. Nothing is sent yet.
 */
export function sessionParts(config: ServerConfig, options: ConnectionOptions, wiring: SessionWiring): SessionParts {
  const flood = new LogFlood({
    ...options.logBudget,
    report: (n, rate) => wiring.log(`(${n} log message${n === 1 ? '' : 's'} dropped: the server sent more than ${rate.toLocaleString('en-US')} a second)`),
  });
  const carrier = carrierFor(config, {
    dropsLine: (line) => flood.dropsLine(line),
    maxMessageBytes: options.maxMessageBytes,
    stderrBytes: options.stderrBytes,
    closeGraceMs: options.closeGraceMs,
    reconnection: options.reconnection,
    oauth: options.oauth,
    probeMeta: wiring.probeMeta,
  });
  carrier.onend = (end) => wiring.onEnd(end);
  const sink = wiring.sink;
  if (sink) carrier.onstderrline = (line) => sink.log('info', `[stderr] ${line}`);
  const client = makeSessionClient({
    clientInfo: wiring.clientInfo,
    handlers: options.handlers ?? {},
    server: config.name,
    sink,
    taskTtlMs: options.clientTaskTtlMs,
    events: wiring.events,
  });
  const guarded = new GuardedTransport(carrier.transport, flood, (err) => wiring.events.error(err));
  return { flood, carrier, client, guarded };
}
