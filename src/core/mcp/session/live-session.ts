import type { LoggingLevel } from '@modelcontextprotocol/client';
import type { ClientHandlers, ServerLogSink } from '../client/client-handlers';
import { ListenStreams } from '../era/listen-streams';
import { ServerExited } from './errors';
import { rootEntries } from './session-client';
import type { SessionParts } from './session-parts';
import { openExtensionSession, type ToolTaskSession } from '../task-ext/extension-session';
import { messageOf } from '../../../node/error-message';

/** A session as it runs: its parts (session-parts.ts) and what a 2026-07-28 one adds once connected. */
export interface LiveSession extends SessionParts {
  /** The `subscriptions/listen` streams (2026-07-28): list changes and resource updates. */
  listen?: ListenStreams;
  /** The Tasks extension's session, when the server declares it (2026-07-28, task-ext/). */
  taskExt?: ToolTaskSession;
}

export interface ExtrasWiring {
  server: string;
  handlers: ClientHandlers;
  clientInfo: { name: string; version: string };
  roots: () => string[];
  sink: ServerLogSink | undefined;
  log(line: string): void;
}

/**
 * What a session connected in 2026-07-28 opens next: listen streams for the lists the server declares, and the
 * Tasks extension's session. A 2025-11-25 session has neither (its notifications come on the session itself).
 */
export async function openEraExtras(session: LiveSession, wiring: ExtrasWiring): Promise<void> {
  const { client, guarded } = session;
  if (client.getProtocolEra() !== 'modern') return;
  session.listen = new ListenStreams(client, wiring.log);
  await session.listen.openLists(client.getServerCapabilities());
  session.taskExt = openExtensionSession({
    client,
    server: wiring.server,
    raw: guarded.raw,
    handlers: wiring.handlers,
    clientInfo: wiring.clientInfo,
    roots: () => rootEntries(wiring.roots()),
    sink: wiring.sink,
  });
}

/**
 * Tells a 2025-11-25 session's server the level to log at (`logging/setLevel`), when it logs; a failure is logged,
 * not thrown. A 2026-07-28 server is told on each request instead (era/request-meta.ts, envelopeMeta).
 */
export async function applyLogLevel(
  session: LiveSession,
  level: LoggingLevel | undefined,
  o: { timeoutMs: number; untilEnded: <T>(p: Promise<T>) => Promise<T>; log(line: string): void },
): Promise<void> {
  const { client } = session;
  if (!level || client.getProtocolEra() !== 'legacy' || !client.getServerCapabilities()?.logging) return;
  try {
    await o.untilEnded(client.setLoggingLevel(level, { timeout: o.timeoutMs }));
  } catch (err) {
    if (!(err instanceof ServerExited)) o.log(`setting the log level to ${level} failed: ${messageOf(err)}`);
  }
}

/**
 * Ends a session: its listen streams, the Tasks extension (its calls' tasks cancelled, best effort, before the
 * client goes), the client (which closes the transport), then the carrier, which waits until it is gone (a
 * process: EOF, SIGTERM, SIGKILL, exit). The parts stay in `session`: what the server said (its stderr, its
 * version) is still read after it ended.
 */
export async function closeSession(session: LiveSession): Promise<void> {
  const { listen, taskExt } = session;
  session.listen = undefined;
  session.taskExt = undefined;
  await listen?.close().catch(() => undefined);
  await taskExt?.close().catch(() => undefined);
  await session.client.close().catch(() => undefined);
  await session.carrier.close().catch(() => undefined);
  session.flood.close();
}

/** What a server may declare that the host uses: resource subscriptions, completions, logging, tasks. */
export type ServerFeature = 'subscribe' | 'completions' | 'logging' | 'tasks';

/**
 * Whether the server declared what a feature needs (e.g. resources.subscribe, completions; tasks: tasks for
 * tools/call in 2025-11-25, the Tasks extension in 2026-07-28).
 */
export function sessionSupports(session: LiveSession | undefined, feature: ServerFeature): boolean {
  const caps = session?.client.getServerCapabilities();
  if (feature === 'tasks' && session?.client.getProtocolEra() === 'modern') return session?.taskExt !== undefined;
  if (feature === 'subscribe') return caps?.resources?.subscribe === true;
  if (feature === 'tasks') return Boolean((caps as { tasks?: { requests?: { tools?: { call?: unknown } } } } | undefined)?.tasks?.requests?.tools?.call);
  return Boolean(caps?.[feature]);
}
