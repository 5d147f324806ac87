import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { refusal } from './http-guard';

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

export const MCP_PATH = '/mcp';

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
    await transport.handleRequest(req, res);
    // Anything but an initialize (answered 400 by the transport) leaves no session: nothing to keep.
    if (!transport.sessionId || !sessions.has(transport.sessionId)) {
      await transport.close().catch(() => undefined);
      await server.close().catch(() => undefined);
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refused = refusal(req, port, options.token);
    if (refused) return answer(res, refused.status, refused.message, refused.headers);
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== MCP_PATH) return answer(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = sessions.get(id);
      if (!session) return answer(res, 404, 'Session not found: initialize a new one');
      session.used = Date.now();
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return answer(res, 400, 'Bad request: no Mcp-Session-Id; POST initialize first');
    return openSession(req, res);
  };

  const http: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      options.log(`request failed: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) answer(res, 500, 'Internal error');
      else res.end();
    });
  });
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

/** A JSON-RPC error body, which MCP clients show, with the status that says what happened. */
function answer(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
