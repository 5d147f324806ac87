/**
 * The 2026-07-28 era for a bundled server, by the official v2 server package: `@modelcontextprotocol/server`
 * serves the era (server/discover, the _meta envelope, input_required, ttlMs and cacheScope, the Mcp-Method checks,
 * subscriptions/listen); what it answers is what the server's v1 McpServer answers. The v2 `Server` built for each
 * request (HTTP) or session (stdio) forwards every request our servers handle to the v1 server's own handlers, so
 * a tool, resource or prompt is written once and both eras run the same code. The v1 server stays what serves
 * 2025-11-25, byte for byte as before.
 *
 * What a 2026-07-28 request cannot have here (yet): a question to the client in the middle of a call (the era has
 * no server-to-client requests: a call's `sendRequest` fails, and the orchestrator finds no client to ask, as with
 * a client without elicitation), and logs, list changes and resource updates (they are sent on the v1 session,
 * which a modern request does not open; the capabilities say so). Progress does come: it belongs to the request.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Implementation, ServerCapabilities, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  Server,
  type McpRequestContext,
  type ServerCapabilities as V2Capabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';

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

const NO_REQUESTS = 'the 2026-07-28 era has no server-to-client requests; this call cannot ask the client anything';

/** The v1 handler's `extra` from a v2 request's context: its signal, _meta, id and notifications go through. */
function extraOf(ctx: ServerContext): RequestHandlerExtra<ServerRequest, ServerNotification> {
  return {
    signal: ctx.mcpReq.signal,
    requestId: ctx.mcpReq.id,
    _meta: ctx.mcpReq._meta as RequestHandlerExtra<ServerRequest, ServerNotification>['_meta'],
    sendNotification: (notification) => ctx.mcpReq.notify(notification as Parameters<ServerContext['mcpReq']['notify']>[0]),
    sendRequest: () => Promise.reject(new Error(NO_REQUESTS)),
  } as RequestHandlerExtra<ServerRequest, ServerNotification>;
}

/**
 * A factory for the v2 serving entries (createMcpHandler, serveStdio): each instance answers with `shared`, the one
 * v1 server of the process for this era (built once, never connected: stateless, so any process can answer).
 */
export function modernFactory(shared: () => Promise<McpServer>): (ctx: McpRequestContext) => Promise<Server> {
  return async () => {
    const v1 = await shared();
    const internals = v1.server as unknown as V1Internals;
    const { logging: _logging, tools, resources, prompts, ...rest } = internals._capabilities;
    // Logs, list changes and resource updates go on the v1 session, which the modern era does not open: declared,
    // they would never come (a client then lists again as ttlMs says, and reads a resource when it needs it).
    const capabilities = { ...rest, ...(tools ? { tools: {} } : {}), ...(resources ? { resources: {} } : {}), ...(prompts ? { prompts: {} } : {}) };
    const server = new Server(internals._serverInfo, {
      capabilities: capabilities as V2Capabilities,
      ...(internals._instructions ? { instructions: internals._instructions } : {}),
    });
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
        const answered = handler({ method, params: request.params }, extraOf(ctx));
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
