// The bundled servers serve both protocol eras, over stdio and --http: a 2025-11-25 client gets the v1 server as
// before, a 2026-07-28 client the same tools through the v2 server package (servers/lib/modern-bridge.ts), and
// over HTTP the new era keeps no session, so two processes behind a plain load balancer answer one client.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpConnection } from '../../src/core/mcp/session/connection';
import type { ServerConfig } from '../../src/core/mcp/types';
import { startBundledHttp, type HttpServerProcess } from './helpers/http-server-process';
import { repoRoot, textOf } from './mcp-support';
import { scaled } from '../support/until';

const T = { timeout: scaled(60_000) };
const workspace = mkdtempSync(join(tmpdir(), 'bundled-eras-'));
writeFileSync(join(workspace, 'hello.txt'), 'hello from both eras\n');
const running: HttpServerProcess[] = [];
after(async () => {
  await Promise.all(running.map((p) => p.stop()));
  rmSync(workspace, { recursive: true, force: true });
});

async function http(name: string): Promise<HttpServerProcess> {
  const p = await startBundledHttp(name, workspace);
  running.push(p);
  return p;
}

const stdio = (name: string, era?: 'legacy'): ServerConfig => ({
  name,
  transport: 'stdio',
  command: process.execPath,
  args: [join(repoRoot(), 'dist', 'servers', `${name}.js`), workspace],
  ...(era ? { era } : {}),
});

async function withConnection(config: ServerConfig, body: (conn: McpConnection) => Promise<void>): Promise<void> {
  const conn = new McpConnection(config, { closeGraceMs: 200 });
  try {
    await conn.start();
    await body(conn);
  } finally {
    await conn.close();
  }
}

describe('the bundled servers in both eras', () => {
  test('over stdio: a client that asks gets 2026-07-28 and the same tools; the host keeps them in 2025-11-25', T, async () => {
    let modernTools: string[] = [];
    await withConnection(stdio('workspace'), async (conn) => {
      assert.equal(conn.era, 'modern');
      assert.equal(conn.status().protocolVersion, '2026-07-28');
      modernTools = conn.tools.map((t) => t.name).sort();
      assert.match(textOf(await conn.callTool('read_file', { path: 'hello.txt' })), /hello from both eras/);
    });
    await withConnection(stdio('workspace', 'legacy'), async (conn) => {
      assert.equal(conn.era, 'legacy');
      assert.equal(conn.status().protocolVersion, '2025-11-25');
      assert.deepEqual(conn.tools.map((t) => t.name).sort(), modernTools);
      assert.match(textOf(await conn.callTool('read_file', { path: 'hello.txt' })), /hello from both eras/);
    });
  });

  test('in 2026-07-28 the workspace and web servers keep their logging capability, over stdio and --http', { timeout: scaled(120_000) }, async () => {
    // A loaded machine may take long to answer which era it speaks: time enough for that.
    const patient = async (config: ServerConfig): Promise<boolean | undefined> => {
      const conn = new McpConnection(config, { closeGraceMs: 200, initializeTimeoutMs: 60_000 });
      try {
        await conn.start();
        return conn.era === 'modern' ? conn.supports('logging') : undefined;
      } finally {
        await conn.close();
      }
    };
    for (const name of ['workspace', 'web']) {
      assert.equal(await patient(stdio(name)), true, `${name} over stdio`);
      const server = await http(name);
      assert.equal(await patient({ name, transport: 'http', url: server.url }), true, `${name} over --http`);
    }
  });

  test('over --http: one server answers a 2026-07-28 client and a 2025-11-25 (v1 SDK) client alike', T, async () => {
    const server = await http('research');
    await withConnection({ name: 'research', transport: 'http', url: server.url }, async (conn) => {
      assert.equal(conn.era, 'modern');
      assert.ok(conn.prompts.length > 0 && conn.resources.length + conn.resourceTemplates.length > 0);
    });
    const v1 = new ClientV1({ name: 'v1', version: '0' });
    await v1.connect(new HttpV1(new URL(server.url)));
    try {
      assert.ok((await v1.listTools()).tools.length > 0);
    } finally {
      await v1.close();
    }
  });

  test('over --http, the 2026-07-28 era keeps no session: two processes answer one client in turn', T, async () => {
    const [a, b] = await Promise.all([http('workspace'), http('workspace')]);
    // A plain round-robin balancer: each request goes to the other process.
    const urls = [a.url, b.url];
    let next = 0;
    const seen = new Set<string>();
    const balanced: typeof fetch = (input, init) => {
      const target = urls[next++ % urls.length] as string;
      seen.add(target);
      return fetch(target, init);
    };
    const client = new Client({ name: 'balanced', version: '0' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(a.url), { fetch: balanced }));
    try {
      assert.equal(client.getProtocolEra(), 'modern');
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('read_file'));
      for (let i = 0; i < 4; i++) {
        const result = await client.callTool({ name: 'read_file', arguments: { path: 'hello.txt' } });
        assert.match(textOf(result as { content: unknown[] }), /hello from both eras/);
      }
      assert.equal(seen.size, 2, 'both processes answered');
    } finally {
      await client.close();
    }
  });
});
