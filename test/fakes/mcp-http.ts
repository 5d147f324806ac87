/**
 * A small MCP server over HTTP for the host's tests (one process). Prints `listening <port>` on stdout.
 * Flags:
 *   --port=N          (default 0: a free port)
 *   --legacy          HTTP+SSE only (GET /mcp opens the stream, POSTs go to /messages); a POST to /mcp is 405
 *   --resumable       keeps an event store and asks clients to come back after --retry ms (SSE `retry`)
 *   --retry=MS        the `retry` it sends (default 50)
 *   --header=K:V      every request must carry this header (401 otherwise)
 * Tools: echo; drop (ends its response stream before answering: resumable with --resumable, cut off
 * otherwise; with --legacy it cuts off the session's event stream), forget (forgets every session: the next request gets 404), requests (what this server saw).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import * as z from 'zod';

const flag = (name: string): string | undefined => {
  const hit = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return hit === undefined ? undefined : (hit.split('=').slice(1).join('=') ?? '');
};
const legacy = flag('legacy') !== undefined;
const resumable = flag('resumable') !== undefined;
const retry = Number(flag('retry') ?? 50);
const required = flag('header')?.split(':');

interface Seen {
  method: string;
  path: string;
  session?: string;
  lastEventId?: string;
  rpc?: string;
}
const seen: Seen[] = [];
const streamable = new Map<string, StreamableHTTPServerTransport>();
const sse = new Map<string, SSEServerTransport>();
/** The GET response of each HTTP+SSE session: its event stream. */
const sseStreams = new Map<string, ServerResponse>();
/** The response of each POST in flight, so `drop` can cut its stream off. */
const responses = new Map<string | number, ServerResponse>();
const text = (t: string): { content: Array<{ type: 'text'; text: string }> } => ({ content: [{ type: 'text', text: t }] });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function build(): McpServer {
  const server = new McpServer({ name: legacy ? 'http-legacy' : 'http-fake', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its text', inputSchema: { text: z.string() } }, async ({ text: t }) => text(t));
  server.registerTool('drop', { description: 'Ends its response stream before answering' }, async (extra) => {
    if (resumable && extra.closeSSEStream) {
      extra.closeSSEStream();
      // Answered after the client came back with Last-Event-ID.
      await sleep(retry * 4);
      return text('answered after the stream was resumed');
    }
    if (legacy) {
      // HTTP+SSE: the one event stream of the session goes, and the session with it.
      sseStreams.get(extra.sessionId ?? '')?.socket?.destroy();
      return new Promise<never>(() => undefined);
    }
    // Once the stream has begun (a progress event went out), it is cut off mid-answer.
    const token = extra._meta?.progressToken;
    if (token !== undefined) {
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: 0, message: 'working' } });
    }
    await sleep(50);
    responses.get(extra.requestId)?.socket?.destroy();
    return new Promise<never>(() => undefined);
  });
  server.registerTool('forget', { description: 'Forgets every session' }, async () => {
    setImmediate(() => streamable.clear());
    return text('forgotten');
  });
  server.registerTool('requests', { description: 'The requests this server saw, as JSON' }, async () => text(JSON.stringify(seen)));
  return server;
}

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown) : undefined;
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const session = (req.headers['mcp-session-id'] as string | undefined) ?? url.searchParams.get('sessionId') ?? undefined;
  const entry: Seen = { method: req.method ?? '', path: url.pathname, session, lastEventId: req.headers['last-event-id'] as string | undefined };
  seen.push(entry);
  if (required && req.headers[(required[0] ?? '').toLowerCase()] !== required.slice(1).join(':')) {
    res.writeHead(401, { 'Content-Type': 'text/plain' }).end(`missing header ${required[0]}`);
    return;
  }
  if (legacy) return handleLegacy(req, res, url);
  if (url.pathname !== '/mcp') return void res.writeHead(404).end('not found');
  const parsed = req.method === 'POST' ? await body(req) : undefined;
  const rpc = parsed as { method?: string; id?: string | number; params?: { name?: string } } | undefined;
  entry.rpc = rpc?.method === 'tools/call' ? `tools/call ${rpc.params?.name}` : rpc?.method;
  if (rpc?.id !== undefined) responses.set(rpc.id, res);
  res.once('close', () => rpc?.id !== undefined && responses.delete(rpc.id));
  if (session) {
    const t = streamable.get(session);
    if (!t) return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('unknown session');
    return t.handleRequest(req, res, parsed);
  }
  const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: randomUUID,
    onsessioninitialized: (id) => void streamable.set(id, transport),
    ...(resumable ? { eventStore: new InMemoryEventStore(), retryInterval: retry } : {}),
  });
  await build().connect(transport);
  await transport.handleRequest(req, res, parsed);
}

async function handleLegacy(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  if (url.pathname === '/mcp' && req.method === 'GET') {
    const transport = new SSEServerTransport('/messages', res);
    sse.set(transport.sessionId, transport);
    sseStreams.set(transport.sessionId, res);
    res.once('close', () => {
      sse.delete(transport.sessionId);
      sseStreams.delete(transport.sessionId);
    });
    await build().connect(transport);
    return;
  }
  if (url.pathname === '/messages' && req.method === 'POST') {
    const t = sse.get(url.searchParams.get('sessionId') ?? '');
    if (!t) return void res.writeHead(404).end('unknown session');
    return t.handlePostMessage(req, res);
  }
  res.writeHead(405, { 'Content-Type': 'text/plain' }).end('Method Not Allowed');
}

const http = createServer((req, res) => {
  handle(req, res).catch((err: unknown) => {
    process.stderr.write(`mcp-http: ${String(err)}\n`);
    if (!res.headersSent) res.writeHead(500).end(String(err));
  });
});
http.listen(Number(flag('port') ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${(http.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
