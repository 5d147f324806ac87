import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { FakeAnthropicApi } from '../fakes/anthropic-api';
import { startBundledHttp, type HttpServerProcess } from './helpers/http-server-process';
import { childrenOf, sessionPath, textOf } from './orchestrator-harness';

// Over --http every client session gets its own MCP server, but they share one orchestrator: one
// session store and runner, and one set of sub-servers for the whole process.
test('over --http two clients share the sessions and one set of sub-servers', { skip: process.platform !== 'linux' }, async (t) => {
  const workspace = mkdtempSync(join(tmpdir(), 'orch-http-'));
  const home = mkdtempSync(join(tmpdir(), 'orch-http-home-'));
  const api = new FakeAnthropicApi(() => ({ text: 'done over http' }));
  await api.start();
  const clients: Client[] = [];
  let server: HttpServerProcess | undefined;
  t.after(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await server?.stop();
    await api.stop();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });
  server = await startBundledHttp('orchestrator', workspace, { ANTHROPIC_API_KEY: 'sk-http', ANTHROPIC_BASE_URL: api.url, MCP_AGENT_HOME: home });
  const connect = async (): Promise<Client> => {
    const c = new Client({ name: 'orch-http-test', version: '0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(server!.url)));
    clients.push(c);
    return c;
  };
  const a = await connect();
  const b = await connect();
  const call = async (c: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
    (await c.callTool({ name, arguments: args })) as CallToolResult;

  const started = await call(a, 'start_agent', { session_name: 'shared', prompt: 'hello' });
  assert.ok(!started.isError, textOf(started));
  const listed = await call(b, 'list_sessions', { response_format: 'json' });
  assert.deepEqual(
    (listed.structuredContent as { sessions: Array<{ name: string }> }).sessions.map((s) => s.name),
    ['shared'],
  );
  const second = await call(b, 'start_agent', { session_name: 'other', prompt: 'hi' });
  assert.ok(!second.isError, textOf(second));
  assert.equal(childrenOf(server.child.pid!).length, 3, 'workspace, web and research started once for the process');
  await server.stop();
  assert.equal(JSON.parse(readFileSync(sessionPath(home, workspace, 'shared', 'session.json'), 'utf8')).status, 'done');
});
