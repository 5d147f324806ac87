/**
 * The Tasks extension (io.modelcontextprotocol/tasks) of one 2026-07-28 session: ext-tasks' requester session over
 * the SDK client, with the host's raw request path (raw-requests.ts) and the host's own answers to a task's input
 * requests. A task that needs input (`input_required` with `inputRequests`, answered by `tasks/update`) is asked
 * through the same handlers, so the same cards and limits, as a server's plain elicitation or sampling: the
 * extension's spec says a task is not a higher-trust channel. The same answers serve an `input_required` round of
 * the tools/call itself (MRTR before the task exists), which ext-tasks drives on this path.
 */
import { ProtocolError, ProtocolErrorCode, type Client, type ServerCapabilities } from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  type ApplicationInputRequest,
  type ResolvedInputExchangeContext,
  type TaskEnabledSession,
} from '@modelcontextprotocol/ext-tasks/client';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import { clientCapabilities, type ClientHandlers, type ServerLogSink } from '../client/client-handlers';
import { elicitationParams, samplingParams } from '../client/client-tasks';
import type { RawRequests } from './raw-requests';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * A runaway server could answer input request after input request: the spec sets no bound, so the host does. A real
 * tool asks a handful of questions; each still goes through the person's card and the handlers' own limits.
 */
const MAX_INPUT_ROUNDS = 32;

/** What one tool call hands its input requests: its signal, and a way to stop its silence limit while a person answers. */
export interface CallInputContext {
  signal: AbortSignal;
  /** +1 when the person is asked, -1 when they answered (or the ask ended). */
  asking(delta: 1 | -1): void;
}

export type ToolTaskSession = TaskEnabledSession<CallInputContext>;

/**
 * Whether the server declares the extension. An empty object is the only form the spec defines so far, and the only
 * one ext-tasks takes for a session that may make tasks: anything else is treated as not declared, on both sides.
 */
function declaresTasksExtension(caps: ServerCapabilities | undefined): boolean {
  const value = (caps?.extensions as Record<string, unknown> | undefined)?.[TASKS_EXTENSION];
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
}

export interface ExtensionSessionOptions {
  client: Client;
  server: string;
  raw: RawRequests;
  handlers: ClientHandlers;
  clientInfo: { name: string; version: string };
  /** The roots offered now, as roots/list answers them. */
  roots(): Array<{ uri: string; name: string }>;
  sink: ServerLogSink | undefined;
}

/**
 * The session's Tasks extension, once the client is connected in the 2026-07-28 era to a server that declares it;
 * undefined otherwise (its calls then go the SDK's way, and a tool the server runs only as a task fails with the
 * server's -32021, which names the extension). Close it before the client.
 */
export function openExtensionSession(o: ExtensionSessionOptions): ToolTaskSession | undefined {
  const version = o.client.getNegotiatedProtocolVersion();
  if (o.client.getProtocolEra() !== 'modern' || !version || !declaresTasksExtension(o.client.getServerCapabilities())) return undefined;
  // The envelope the SDK puts on its own requests (connection.ts probeMeta), without the 2025-11-25 `tasks`
  // capability: in this era tasks are the extension, which ext-tasks adds to each of its requests.
  const { tasks: _legacyTasks, ...capabilities } = clientCapabilities(o.handlers);
  return createTaskSessionFromClient<CallInputContext>(o.client, {
    endpointId: o.server,
    rawDispatch: (request, options) => o.raw.dispatch(request, options),
    v2RequestFraming: {
      protocolVersion: version,
      clientInfo: o.clientInfo,
      clientCapabilities: capabilities as Record<string, JsonValue>,
    },
    // Each call hands over the definition the host listed: no second tools/list of ext-tasks' own.
    tools: { currentTool: () => undefined },
    // The handlers' answers are the SDK's result types; ext-tasks checks each against the input request's own schema.
    onInputRequest: (request, ctx) => answer(o, request, ctx) as never,
    onError: (err) => o.sink?.log('info', `tasks: ${err.message}`),
    maxInputRounds: MAX_INPUT_ROUNDS,
  });
}

async function answer(o: ExtensionSessionOptions, request: ApplicationInputRequest, ctx: ResolvedInputExchangeContext<CallInputContext>): Promise<unknown> {
  if (request.kind === 'roots') return { roots: o.roots() };
  const call = ctx.applicationContext;
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, call.signal]) : call.signal;
  call.asking(1);
  try {
    if (request.kind === 'elicitation') {
      const elicitation = o.handlers.elicitation;
      if (!elicitation || elicitation.modes.length === 0) throw notOffered('elicitation');
      return await elicitation.handle(elicitationParams({ ...request.params }), { server: o.server, signal });
    }
    const sampling = o.handlers.sampling;
    if (!sampling) throw notOffered('sampling');
    return await sampling(samplingParams({ ...request.params }), { server: o.server, signal });
  } finally {
    call.asking(-1);
  }
}

/** A server asking for what the host never declared (its capabilities say so): refused, as a plain request would be. */
function notOffered(what: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidRequest, `this client does not offer ${what}`);
}
