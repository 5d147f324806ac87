// The bundled servers over --http: through the hub like any remote server, and the refusals a loopback
// server owes a browser page (Host, Origin) and a stranger (bearer token), checked with raw fetch.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpHub } from '../../src/core/mcp/hub/hub';
import type { ServerConfig } from '../../src/core/mcp/types';
import { startBundledHttp, type HttpServerProcess } from './helpers/http-server-process';
import { repoRoot, textOf } from './mcp-support';
import { scaled } from '../support/until';

const T = { timeout: scaled(30_000) };
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

/** A POST of initialize with exactly these headers (fetch would not let a test set Host). */
function post(
  port: number,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const body = JSON.stringify(INIT);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Content-Length': Buffer.byteLength(body), ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const messageOf = (body: string): string => (JSON.parse(body) as { error: { message: string } }).error.message;

describe('bundled servers over --http', () => {
  const dirs: string[] = [];
  const running: HttpServerProcess[] = [];
  const workspace = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'mcp-http-ws-'));
    dirs.push(d);
    return d;
  };
  const start = async (name: string, env: Record<string, string> = {}): Promise<HttpServerProcess> => {
    const p = await startBundledHttp(name, workspace(), env);
    running.push(p);
    return p;
  };
  after(async () => {
    await Promise.all(running.map((p) => p.stop()));
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  test('the workspace server over HTTP works through the hub, two sessions at once', T, async () => {
    const ws = workspace();
    writeFileSync(join(ws, 'hello.txt'), 'hello over http\n');
    const server = await startBundledHttp('workspace', ws);
    running.push(server);
    const configs: ServerConfig[] = [
      { name: 'one', transport: 'http', url: server.url },
      { name: 'two', transport: 'http', url: server.url },
    ];
    const hub = new McpHub(configs, { connection: { closeGraceMs: 200 } });
    hub.start();
    try {
      await hub.settled();
      for (const name of ['one', 'two']) {
        const s = hub.status(name);
        assert.equal(s?.state, 'ready', s?.error);
        assert.equal(s?.transport, 'streamable-http');
        assert.match(s?.serverVersion ?? '', /^workspace /);
        assert.match(textOf(await hub.callTool(`${name}__read_file`, { path: 'hello.txt' })), /hello over http/);
      }
    } finally {
      await hub.dispose();
    }
  });

  test('Host and Origin that are not this loopback server are refused with 403', T, async () => {
    const { port } = await start('research');
    const rebound = await post(port, { Host: `evil.example:${port}` });
    assert.equal(rebound.status, 403);
    assert.match(messageOf(rebound.body), /Host "evil\.example:\d+" is not this loopback server/);
    const page = await post(port, { Origin: 'https://evil.example' });
    assert.equal(page.status, 403);
    assert.match(messageOf(page.body), /Origin "https:\/\/evil\.example" may not use this server/);
    assert.equal((await post(port, { Origin: 'null' })).status, 403);
    assert.equal((await post(port, { Origin: `http://localhost:${port + 1}` })).status, 403);
    // The server itself as Origin, and no Origin at all (any non-browser client), are let in.
    assert.equal((await post(port, { Origin: `http://127.0.0.1:${port}` })).status, 200);
    assert.equal((await post(port, { Host: `localhost:${port}` })).status, 200);
    assert.equal((await post(port, {})).status, 200);
  });

  test('with MCP_AGENT_HTTP_TOKEN set, a request without that bearer token gets 401; the hub gets in with the header', T, async () => {
    const server = await start('web', { MCP_AGENT_HTTP_TOKEN: 'tok-123' });
    assert.match(server.stderr(), /\(bearer token required\)/);
    const none = await post(server.port, {});
    assert.equal(none.status, 401);
    assert.match(String(none.headers['www-authenticate']), /^Bearer/);
    assert.equal((await post(server.port, { Authorization: 'Bearer tok-12' })).status, 401);
    assert.equal((await post(server.port, { Authorization: 'Bearer tok-1234' })).status, 401);
    assert.equal((await post(server.port, { Authorization: 'Basic tok-123' })).status, 401);
    assert.equal((await post(server.port, { Authorization: 'Bearer tok-123' })).status, 200);
    const hub = new McpHub(
      [
        { name: 'with', transport: 'http', url: server.url, headers: { Authorization: 'Bearer tok-123' } },
        { name: 'without', transport: 'http', url: server.url },
      ],
      { connection: { closeGraceMs: 200 } },
    );
    hub.start();
    try {
      await hub.settled();
      assert.equal(hub.status('with')?.state, 'ready', hub.status('with')?.error);
      assert.ok((hub.status('with')?.tools.length ?? 0) > 0);
      assert.match(hub.status('without')?.error ?? '', /answered HTTP 401: Unauthorized: send Authorization: Bearer/);
    } finally {
      await hub.dispose();
    }
  });

  test('past 16 sessions the least recently used is closed (its client gets 404); stdin closing does not stop the server', T, async () => {
    const server = await start('research');
    server.child.stdin?.end();
    const sessions: string[] = [];
    for (let i = 0; i < 17; i++) {
      const res = await post(server.port, {});
      assert.equal(res.status, 200, res.body);
      sessions.push(String(res.headers['mcp-session-id']));
    }
    assert.equal(new Set(sessions).size, 17);
    const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
    const again = async (session: string): Promise<number> =>
      (
        await fetch(server.url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            'Mcp-Session-Id': session,
            'Mcp-Protocol-Version': '2025-06-18',
          },
          body: JSON.stringify(ping),
        })
      ).status;
    assert.equal(await again(sessions[0] as string), 404);
    assert.equal(await again(sessions[16] as string), 200);
    assert.match(server.stderr(), /closing the least recently used of 16 sessions/);
  });

  test('it listens on 127.0.0.1 only', T, async (t) => {
    const other = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    if (!other) return t.skip('this machine has no non-loopback IPv4 address to try');
    const { port } = await start('research');
    await assert.rejects(fetch(`http://${other}:${port}/mcp`, { method: 'POST', body: '{}' }), /fetch failed/);
  });

  test('a missing or bad port prints usage and exits 2; other paths are 404', T, async () => {
    const bundle = join(repoRoot(), 'dist', 'servers', 'research.js');
    const ws = workspace();
    for (const args of [['--http'], ['--http', 'eighty'], ['--http', '70000'], ['--http', '-1'], ['--http', '8080', 'extra'], ['--https', '8080']]) {
      const r = spawnSync(process.execPath, [bundle, ws, ...args], { encoding: 'utf8', timeout: scaled(20_000) });
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /usage: node dist\/servers\/research\.js <workspace-dir> \[--http <port>\]/, args.join(' '));
    }
    const { port } = await start('research');
    const res = await fetch(`http://127.0.0.1:${port}/other`, { method: 'POST', body: '{}' });
    assert.equal(res.status, 404);
  });
});
