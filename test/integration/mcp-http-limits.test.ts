// What a bundled server over --http gives back and what a stranger can cost it: a session that ends
// leaves nothing running; a connection that never sends a whole request is closed; a flood of
// connections without a session cannot keep a real client out; and a server without a token says so.
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, type Socket } from 'node:net';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startBundledHttp, type HttpServerProcess } from './helpers/http-server-process';
import { removeTree, repoRoot, tempWorkspace, textOf } from './workspace-harness';
import { scaled } from '../support/until';

const T = { timeout: scaled(60_000) };
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};
const TOKEN_WARNING = /warning: MCP_AGENT_HTTP_TOKEN is not set, so any process on this machine, of any user, can connect/;

const dirs: string[] = [];
const running: HttpServerProcess[] = [];
after(async () => {
  await Promise.all(running.map((p) => p.stop()));
  for (const d of dirs) removeTree(d);
});

async function start(name: string, env: Record<string, string> = {}, prepare: (ws: string) => void = () => undefined): Promise<HttpServerProcess> {
  const ws = tempWorkspace('mcp-http-limits-');
  dirs.push(ws);
  prepare(ws);
  const server = await startBundledHttp(name, ws, env);
  running.push(server);
  return server;
}

function initialize(server: HttpServerProcess, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(server.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(INIT),
  });
}

function threadsOf(pid: number): number {
  return Number(/^Threads:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
}

/** A client session that runs one statement and ends (DELETE, then close). */
async function sessionThatQueries(server: HttpServerProcess, sql: string): Promise<void> {
  const client = new Client({ name: 'limits', version: '0' });
  const transport = new StreamableHTTPClientTransport(new URL(server.url));
  await client.connect(transport);
  const r = (await client.callTool({ name: 'query_database', arguments: { sql } })) as CallToolResult;
  assert.equal(r.isError, undefined, textOf(r));
  await transport.terminateSession();
  await client.close();
}

/** A connection that sends `first` and nothing more; `closed` resolves with what the server answered before closing it. */
function silentConnection(port: number, first = ''): Promise<{ socket: Socket; closed: Promise<string> }> {
  const socket = connect(port, '127.0.0.1');
  let answered = '';
  socket.on('data', (d: Buffer) => (answered += d.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(answered)));
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', () => {
      if (first) socket.write(first);
      resolve({ socket, closed });
    });
  });
}

test(
  'sessions that end give back what they held: their SQL leaves no thread behind',
  { ...T, skip: !existsSync('/proc/self/status') && 'needs /proc' },
  async () => {
    const server = await start('workspace', {}, (ws) => copyFileSync(join(repoRoot(), 'sample-workspace', 'data.db'), join(ws, 'data.db')));
    const pid = server.child.pid as number;
    // The first session starts what the process keeps (the SQL worker, the thread pool).
    await sessionThatQueries(server, 'SELECT count(*) AS n FROM books');
    const before = threadsOf(pid);
    for (let i = 0; i < 8; i++) await sessionThatQueries(server, 'SELECT count(*) AS n FROM books');
    assert.ok(threadsOf(pid) <= before, `threads grew from ${before} to ${threadsOf(pid)} over 8 ended sessions`);
  },
);

test('a connection that never sends its whole request is answered 408 and closed', { timeout: scaled(30_000) }, async () => {
  const server = await start('research', { MCP_AGENT_HTTP_TOKEN: 'tok' });
  const { closed } = await silentConnection(server.port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`);
  assert.match(await closed, /^HTTP\/1\.1 408 /);
});

test('past 64 connections without a session the oldest are closed, and an initialize still gets in', T, async () => {
  const server = await start('research');
  const waiting: Array<{ socket: Socket; closed: Promise<string> }> = [];
  const closedOnes: number[] = [];
  let sixClosed!: () => void;
  const six = new Promise<void>((resolve) => (sixClosed = resolve));
  for (let i = 0; i < 70; i++) {
    const c = await silentConnection(server.port);
    void c.closed.then(() => {
      closedOnes.push(i);
      if (closedOnes.length === 6) sixClosed();
    });
    waiting.push(c);
  }
  await six;
  assert.deepEqual(
    closedOnes.sort((a, b) => a - b),
    [0, 1, 2, 3, 4, 5],
    'the six oldest are closed',
  );
  const res = await initialize(server);
  assert.equal(res.status, 200, await res.text());
  assert.match(server.stderr(), /more than 64 connections without a session at once: closing the oldest of them/);
  for (const c of waiting) c.socket.destroy();
});

test('a session-less POST that is not an initialize is refused, and a body that is not JSON is a parse error', T, async () => {
  const server = await start('research', { MCP_AGENT_HTTP_TOKEN: 'tok' });
  const post = (body: string): Promise<Response> =>
    fetch(server.url, {
      method: 'POST',
      headers: { Authorization: 'Bearer tok', 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body,
    });
  const ping = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
  assert.equal(ping.status, 400);
  assert.match(await ping.text(), /no Mcp-Session-Id; POST initialize first/);
  const garbage = await post('{"jsonrpc": "2.0", ');
  assert.equal(garbage.status, 400);
  assert.equal(((await garbage.json()) as { error: { code: number } }).error.code, -32700);
  assert.equal((await initialize(server, { Authorization: 'Bearer tok' })).status, 200);
});

test('without MCP_AGENT_HTTP_TOKEN the server warns on stderr that any local process can use it; with one it does not', T, async () => {
  const open = await start('web');
  await new Promise<void>((resolve) => {
    const check = (): void => {
      if (!TOKEN_WARNING.test(open.stderr())) return;
      open.child.stderr?.off('data', check);
      resolve();
    };
    open.child.stderr?.on('data', check);
    check();
  });
  const guarded = await start('web', { MCP_AGENT_HTTP_TOKEN: 'tok' });
  assert.equal((await initialize(guarded, { Authorization: 'Bearer tok' })).status, 200);
  assert.match(guarded.stderr(), /\(bearer token required\)/);
  assert.doesNotMatch(guarded.stderr(), TOKEN_WARNING);
});
