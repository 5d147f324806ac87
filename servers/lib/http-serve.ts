import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import { refusal } from './http-guard';
import { PreSessionSockets } from './pre-session-sockets';
import { readJsonBody } from './request-body';
import { messageOf } from '../../src/node/error-message';

export interface HttpServeOptions {
  /** 0 picks a free port; the one taken is in the result. */
  port: number;
  /** A new MCP server for each session (one McpServer serves one transport). */
  build: () => McpServer | Promise<McpServer>;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string;
  /** Sessions held at once; past it the least recently used one is closed (its client gets 404 and starts anew). Default 16. */
  maxSessions?: number;
  log: (line: string) => void;
  /**
   * Serves a request of the 2026-07-28 era (modern-bridge.ts): stateless, no session, so any process behind a load
   * balancer answers it. Without it, such a request gets the 2025-11-25 answer (initialize first).
   */
  modern?: ModernHttp;
}

/** The 2026-07-28 side (server-main.ts loads it at its first request): the v2 package's classification and handler. */
export interface ModernHttp {
  /** The v2 SDK's own routing decision, run on the request's headers and parsed body. */
  isLegacy(request: Request, body: unknown): Promise<boolean>;
  handle: NodeMcpRequestHandler;
}

export interface HttpServing {
  port: number;
  url: string;
  close: () => Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  used: number;
}

const MCP_PATH = '/mcp';

/**
 * What a connection may cost before it carries a session: its headers must arrive within
 * HEADERS_TIMEOUT_MS and its whole request within REQUEST_TIMEOUT_MS (answered 408 and closed
 * otherwise; Node checks every CHECK_INTERVAL_MS), and at most MAX_PRE_SESSION_SOCKETS wait at
 * once. Loopback clients send a request in well under a millisecond; a response, however long
 * (an SSE stream), is not bounded by these.
 */
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
const CHECK_INTERVAL_MS = 1_000;
const MAX_PRE_SESSION_SOCKETS = 64;
/** The SDK's own limit on a request body (DEFAULT_MAX_REQUEST_BODY_SIZE). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Streamable HTTP on 127.0.0.1 only, at /mcp, one session per client (Mcp-Session-Id), every
 * request checked by http-guard.ts first.
 */
export async function serveHttp(options: HttpServeOptions): Promise<HttpServing> {
  const sessions = new Map<string, Session>();
  const max = options.maxSessions ?? 16;
  let port = options.port;

  const closeSession = async (id: string): Promise<void> => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    await s.transport.close().catch(() => undefined);
    await s.server.close().catch(() => undefined);
  };

  const openSession = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // A whole server is built only for a whole initialize: never for a connection still sending, nor for anything else.
    const body = await readJsonBody(req, MAX_BODY_BYTES);
    if (!body) return;
    if (!body.ok) return answer(res, body.status, body.message, {}, body.code);
    const initializes = Array.isArray(body.value) ? body.value.some(isInitializeRequest) : isInitializeRequest(body.value);
    if (!initializes && options.modern && !(await options.modern.isLegacy(webRequest(req), body.value))) {
      presession.joined(req.socket);
      return options.modern.handle(req, res, body.value);
    }
    if (!initializes) return answer(res, 400, 'Bad request: no Mcp-Session-Id; POST initialize first');
    if (sessions.size >= max) {
      const oldest = [...sessions.entries()].sort((a, b) => a[1].used - b[1].used)[0];
      if (oldest) {
        options.log(`closing the least recently used of ${max} sessions to make room`);
        await closeSession(oldest[0]);
      }
    }
    const server = await options.build();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => void sessions.set(id, { transport, server, used: Date.now() }),
      onsessionclosed: (id) => void closeSession(id),
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body.value);
    if (transport.sessionId !== undefined && sessions.has(transport.sessionId)) {
      presession.joined(req.socket);
      return;
    }
    // An initialize the transport refused (a bad Accept header, say) leaves no session: nothing to keep.
    await transport.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refused = refusal(req, port, options.token);
    if (refused) return answer(res, refused.status, refused.message, refused.headers);
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== MCP_PATH) return answer(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = sessions.get(id);
      if (!session) return answer(res, 404, 'Session not found: initialize a new one');
      presession.joined(req.socket);
      session.used = Date.now();
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return answer(res, 400, 'Bad request: no Mcp-Session-Id; POST initialize first');
    return openSession(req, res);
  };

  const http: Server = createServer(
    { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: CHECK_INTERVAL_MS },
    (req, res) => {
      handle(req, res).catch((err: unknown) => {
        options.log(`request failed: ${messageOf(err)}`);
        if (!res.headersSent) answer(res, 500, 'Internal error');
        else res.end();
      });
    },
  );
  const presession = new PreSessionSockets(http, MAX_PRE_SESSION_SOCKETS, options.log);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    close: async () => {
      await Promise.all([...sessions.keys()].map(closeSession));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** The headers of a request, as the v2 SDK's era classification reads them (the body is passed parsed). */
function webRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
  }
  return new Request(`http://127.0.0.1${req.url ?? '/'}`, { method: req.method, headers });
}

/** A JSON-RPC error body, which MCP clients show, with the status that says what happened. */
function answer(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = -32000): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
