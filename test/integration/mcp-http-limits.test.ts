// What a bundled server over --http gives back: a session that ends leaves nothing running.
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startBundledHttp, type HttpServerProcess } from './helpers/http-server-process';
import { removeTree, repoRoot, tempWorkspace, textOf } from './workspace-harness';

const T = { timeout: 60_000 };

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

test('sessions that end give back what they held: their SQL leaves no thread behind', { ...T, skip: !existsSync('/proc/self/status') && 'needs /proc' }, async () => {
  const server = await start('workspace', {}, (ws) => copyFileSync(join(repoRoot(), 'sample-workspace', 'data.db'), join(ws, 'data.db')));
  const pid = server.child.pid as number;
  // The first session starts what the process keeps (the SQL worker, the thread pool).
  await sessionThatQueries(server, 'SELECT count(*) AS n FROM books');
  const before = threadsOf(pid);
  for (let i = 0; i < 8; i++) await sessionThatQueries(server, 'SELECT count(*) AS n FROM books');
  assert.ok(threadsOf(pid) <= before, `threads grew from ${before} to ${threadsOf(pid)} over 8 ended sessions`);
});
