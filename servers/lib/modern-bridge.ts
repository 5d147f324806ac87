/**
 * The 2026-07-28 era for a bundled server, by the official v2 server package: `@modelcontextprotocol/server`
 * serves the era (server/discover, the _meta envelope, input_required, ttlMs and cacheScope, the Mcp-Method checks,
 * subscriptions/listen); what it answers is what the server's v1 McpServer answers. The v2 `Server` built for each
 * request (HTTP) or session (stdio) forwards every request our servers handle to the v1 server's own handlers, so
 * a tool, resource or prompt is written once and both eras run the same code. The v1 server stays what serves
 * 2025-11-25, byte for byte as before.
 *
 * What the v1 code does outside a handler's `extra` means, within a 2026-07-28 request (modern-call.ts):
 * - a question to the client (elicitInput, createMessage, listRoots) ends the round with `input_required`; the
 *   client calls again with the answer and a signed state, and the handler runs afresh, answered at once; or, for a
 *   handler that began what a rerun would repeat, goes on in this process with the answer (modern-rounds.ts);
 * - a log goes on the request, at the level its `_meta` asks for (server-log.ts);
 * - a list change or resource update (change-feed.ts) goes to the open subscriptions/listen streams: on stdio
 *   through the connection's v2 instance, whose listen router stamps and filters it; over HTTP through the
 *   handler's event bus (`forwardChanges`).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Implementation, ServerCapabilities, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import {
  type ServerNotifier,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  Server,
  type McpRequestContext,
  type ServerCapabilities as V2Capabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { onChange, type Change } from './change-feed';
import { modernCall, type AskOptions } from './modern-call';
import type { RoundRelay } from './modern-continuation';
import { answerRound, ROUND_TRIP_METHODS, roundStateCodec } from './modern-rounds';

/** The requests a bundled server answers that the 2026-07-28 era still has, in the v1 server's own words. */
const FORWARDED = [
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
] as const;

type V1Handler = (request: { method: string; params?: unknown }, extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => Promise<unknown>;

/** What the v1 SDK keeps private but a bridge must read: the server's handlers, its name and what it declared. */
interface V1Internals {
  _requestHandlers: Map<string, V1Handler>;
  /** The McpServer's tools by name (on the McpServer itself, not its Server). */
  _registeredTools?: Record<string, { enabled?: boolean }>;
  _serverInfo: Implementation;
  _capabilities: ServerCapabilities;
  _instructions?: string;
}

/** A request answered in one go: its own signal, _meta and notifications. */
function ownRelay(ctx: ServerContext): RoundRelay {
  return {
    signal: ctx.mcpReq.signal,
    meta: ctx.mcpReq._meta as Record<string, unknown> | undefined,
    notify: (notification) => ctx.mcpReq.notify(notification as Parameters<ServerContext['mcpReq']['notify']>[0]),
  };
}

/**
 * The v1 handler's `extra` for a v2 request: its signal, _meta and notifications go through `relay`, which for a call
 * of several rounds is whichever round is being answered now (modern-continuation.ts).
 */
function extraOf(ctx: ServerContext, relay: RoundRelay): RequestHandlerExtra<ServerRequest, ServerNotification> {
  return {
    signal: relay.signal,
    requestId: ctx.mcpReq.id,
    get _meta() {
      return relay.meta as RequestHandlerExtra<ServerRequest, ServerNotification>['_meta'];
    },
    sendNotification: (notification) => relay.notify(notification),
    // A question asked through `extra` is one the round answers (or ends on), as one asked of the server.
    sendRequest: (request, _schema, options) => askedInRound(request, askOptions(options)),
  } as RequestHandlerExtra<ServerRequest, ServerNotification>;
}

/** A question of the v1 code within a 2026-07-28 request: the round's to answer or to ask (modern-rounds.ts). */
function askedInRound(request: { method: string; params?: unknown }, options?: AskOptions): Promise<never> {
  const call = modernCall();
  if (!call) return Promise.reject(new Error('a 2026-07-28 request asks its client only while it is being answered'));
  return call.ask(request, options) as Promise<never>;
}

/** A v1 request's options as a question's: what withdraws it, and how long it may wait. */
function askOptions(options: unknown): AskOptions {
  const o = (options ?? {}) as { signal?: AbortSignal; timeout?: number };
  return { ...(o.signal ? { signal: o.signal } : {}), ...(typeof o.timeout === 'number' ? { timeoutMs: o.timeout } : {}) };
}

/** The server-to-client requests of the v1 Server and the method each sends. */
const QUESTIONS = { elicitInput: 'elicitation/create', createMessage: 'sampling/createMessage', listRoots: 'roots/list' } as const;

const bridged = new WeakSet<McpServer>();

/**
 * Makes the v1 server's own session-wide calls mean, within a 2026-07-28 request, what they mean there: the client's
 * capabilities are those of the request's `_meta`, and a question is the round's (askedInRound). Outside one (a
 * 2025-11-25 session of the same server) they are the v1 server's as before. Once per server.
 */
function bridgeSessionCalls(v1: McpServer): void {
  if (bridged.has(v1)) return;
  bridged.add(v1);
  const server = v1.server as unknown as Record<string, (...args: unknown[]) => unknown>;
  const capabilities = server.getClientCapabilities!.bind(server);
  server.getClientCapabilities = () => {
    const call = modernCall();
    return call ? call.clientCapabilities : capabilities();
  };
  for (const [name, method] of Object.entries(QUESTIONS)) {
    const own = server[name]!.bind(server);
    server[name] = (params: unknown, options: unknown) => {
      if (!modernCall()) return own(params, options);
      const asked = name === 'elicitInput' ? { mode: 'form', ...(params as object) } : params;
      return askedInRound({ method, ...(asked === undefined ? {} : { params: asked }) }, askOptions(options));
    };
  }
}

/** What a change is on a subscriptions/listen stream, through the v2 HTTP handler's notifier. */
export function forwardChanges(v1: McpServer, notify: ServerNotifier): () => void {
  return onChange(v1, (change) => (change.kind === 'resource_updated' ? notify.resourceUpdated(change.uri) : notify.resourcesChanged()));
}

/** The same through a stdio connection's v2 instance: the connection's listen router takes its notifications. */
function sendChange(server: Server, change: Change): void {
  const sent = change.kind === 'resource_updated' ? server.sendResourceUpdated({ uri: change.uri }) : server.sendResourceListChanged();
  sent.catch(() => undefined);
}

/**
 * A factory for the v2 serving entries (createMcpHandler, serveStdio): each instance answers with `shared`, the one
 * v1 server of the process for this era (built once, never connected: stateless, so any process can answer).
 * `stdio`: the instance serves a whole connection, so the v1 server's changes reach its listen streams through it
 * (over HTTP, server-main.ts forwards them to the handler's bus once).
 */
export function modernFactory(shared: () => Promise<McpServer>, transport: 'stdio' | 'http'): (ctx: McpRequestContext) => Promise<Server> {
  return async () => {
    const v1 = await shared();
    bridgeSessionCalls(v1);
    const internals = v1.server as unknown as V1Internals;
    const server = new Server(internals._serverInfo, {
      // As declared: what a 2025-11-25 session is sent, a 2026-07-28 request or listen stream is sent too.
      capabilities: internals._capabilities as V2Capabilities,
      ...(internals._instructions ? { instructions: internals._instructions } : {}),
      requestState: { verify: (state, ctx) => roundStateCodec().verify(state, ctx) },
    });
    if (transport === 'stdio') {
      const stop = onChange(v1, (change) => sendChange(server, change));
      const closed = server.onclose;
      server.onclose = () => {
        stop();
        closed?.();
      };
    }
    const registered = (v1 as unknown as Pick<V1Internals, '_registeredTools'>)._registeredTools ?? {};
    for (const method of FORWARDED) {
      const handler = internals._requestHandlers.get(method);
      if (!handler) continue;
      server.setRequestHandler(method, ((request: { method: string; params?: { name?: string } }, ctx: ServerContext) => {
        // An unknown tool is a protocol error in the v2 McpServer (-32602), where v1 answers a result saying so.
        const name = request.params?.name;
        if (method === 'tools/call' && (typeof name !== 'string' || !(name in registered) || registered[name]?.enabled === false)) {
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${String(name)} not found`);
        }
        const answered = ROUND_TRIP_METHODS.has(method)
          ? answerRound(request as { method: string; params?: Record<string, unknown> }, ctx, (call) =>
              handler({ method, params: request.params }, extraOf(ctx, call.relay)),
            )
          : handler({ method, params: request.params }, extraOf(ctx, ownRelay(ctx)));
        return method === 'resources/read'
          ? answered.catch((err: unknown) => rethrowNotFound(err, (request.params as { uri?: unknown } | undefined)?.uri))
          : answered;
      }) as never);
    }
    return server;
  };
}

/** v1's "Resource … not found" (-32602) as the v2 SDK says it: with the uri in its data (SEP-2164). */
function rethrowNotFound(err: unknown, uri: unknown): never {
  const e = err as { code?: unknown; message?: unknown };
  if (typeof uri === 'string' && e?.code === ProtocolErrorCode.InvalidParams && /not found/i.test(String(e.message))) {
    throw new ResourceNotFoundError(uri);
  }
  throw err;
}
