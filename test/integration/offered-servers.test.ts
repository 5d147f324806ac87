// The bundled servers as VS Code's own MCP host is offered them (editor-mcp.ts): started the way its extension host
// starts a stdio definition (its own environment with the definition's laid over, null removing), they answer; the
// listed definition holds no key and removes the host's, and the key a server needs comes only as it starts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { keysFor, offeredServers, type OfferedServer } from '../../src/core/mcp/hub/offered-servers';
import { startUpstreams, type Upstreams } from '../fakes/upstreams';
import { repoRoot } from './mcp-support';
import { scaled } from '../support/until';

const T = { timeout: scaled(60_000) };

/** What VS Code's extension host does with a stdio definition's env (extHostMcpNode: process.env, then each value, null deletes). */
function launchedEnv(hostEnv: NodeJS.ProcessEnv, env: Record<string, string | null>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(hostEnv)) if (v !== undefined) out[k] = v;
  for (const [k, v] of Object.entries(env)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

async function start(server: OfferedServer, hostEnv: NodeJS.ProcessEnv, keys: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    cwd: server.cwd,
    env: launchedEnv(hostEnv, { ...server.env, ...keys }),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'editor-host-test', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

describe('the bundled servers offered to VS Code’s MCP host', () => {
  let up: Upstreams;
  let ws: string;
  let hostEnv: NodeJS.ProcessEnv;
  const clients: Client[] = [];

  before(async () => {
    up = await startUpstreams();
    ws = mkdtempSync(join(tmpdir(), 'offered-'));
    // The extension host's environment: the person's keys and tokens are in it, and the test's fake upstream.
    hostEnv = {
      ...process.env,
      BRAVE_API_KEY: 'good-key',
      ANTHROPIC_API_KEY: 'sk-ant-secret',
      GITHUB_TOKEN: 'ghp_secret',
      BRAVE_SEARCH_URL: `${up.origin}/brave/search`,
    };
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await up?.close();
    rmSync(ws, { recursive: true, force: true });
  });

  test('workspace, web and research are offered as `node dist/servers/<name>.js <workspace>`, never the orchestrator', () => {
    const offered = offeredServers(join(repoRoot(), 'dist'), ws, hostEnv);
    assert.deepEqual(
      offered.map((s) => [s.name, s.label, s.args]),
      ['workspace', 'web', 'research'].map((n) => [n, `MCP Agent: ${n}`, [join(repoRoot(), 'dist', 'servers', `${n}.js`), ws]]),
    );
    for (const s of offered) {
      assert.equal(s.command, process.execPath);
      assert.equal(s.cwd, ws);
      assert.equal(s.env.ELECTRON_RUN_AS_NODE, '1');
    }
  });

  test('a listed definition holds no key (VS Code keeps it between sessions) and removes the host’s keys and tokens', () => {
    for (const s of offeredServers(join(repoRoot(), 'dist'), ws, hostEnv)) {
      const values = Object.values(s.env);
      for (const secret of ['good-key', 'sk-ant-secret', 'ghp_secret']) assert.ok(!values.includes(secret), `${s.name} lists ${secret}`);
      assert.equal(s.env.GITHUB_TOKEN, null, `${s.name} would inherit GITHUB_TOKEN`);
      assert.equal(s.env.ANTHROPIC_API_KEY, null);
      assert.equal(s.env.BRAVE_API_KEY, null);
      assert.equal(s.env.PATH, undefined, 'PATH is the host’s own');
    }
    assert.equal(offeredServers(join(repoRoot(), 'dist'), ws, hostEnv).find((s) => s.name === 'web')?.env.BRAVE_SEARCH_URL, `${up.origin}/brave/search`);
  });

  test('only the web server takes a key as it starts: the Brave key', () => {
    assert.deepEqual(keysFor('web', hostEnv), { BRAVE_API_KEY: 'good-key' });
    assert.deepEqual(keysFor('workspace', hostEnv), {});
    assert.deepEqual(keysFor('research', hostEnv), {});
  });

  test('each starts as VS Code’s host starts it and lists its tools', T, async () => {
    for (const s of offeredServers(join(repoRoot(), 'dist'), ws, hostEnv)) {
      const client = await start(s, hostEnv);
      clients.push(client);
      const { tools } = await client.listTools();
      assert.ok(tools.length > 0, `${s.name} lists no tools`);
    }
  });

  test('web search works with the key added as it starts, and without it the listed definition has none', T, async () => {
    const web = offeredServers(join(repoRoot(), 'dist'), ws, hostEnv).find((s) => s.name === 'web')!;
    const bare = await start(web, hostEnv);
    const keyed = await start(web, hostEnv, keysFor('web', hostEnv));
    clients.push(bare, keyed);
    const without = (await bare.callTool({ name: 'web_search', arguments: { query: 'mcp' } })) as CallToolResult;
    assert.equal(without.isError, true);
    const withKey = (await keyed.callTool({ name: 'web_search', arguments: { query: 'mcp' } })) as CallToolResult;
    assert.equal(withKey.isError, undefined, JSON.stringify(withKey.content));
  });
});
