// Both protocol eras against real servers: test/fakes/mcp-modern.ts (the v2 SDK, 2026-07-28 only or both eras, over
// stdio and HTTP) and test/fakes/mcp-echo.ts (a 2025-11-25 server on the v1 SDK). The era each server answered
// with is remembered: a known server is connected in its era at once, with no probe and no second process.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpConnection, type ConnectionOptions } from '../../src/core/mcp/session/connection';
import { eraKey, MemoryEras } from '../../src/core/mcp/era/era-memory';
import type { ServerLogSink, SinkLevel } from '../../src/core/mcp/client/client-handlers';
import type { ServerConfig } from '../../src/core/mcp/types';
import { startModernHttp, type HttpServerProcess } from './helpers/http-server-process';
import { fakeConfig, textOf } from './mcp-support';
import { testPerson } from './helpers/oauth-harness';
import { scaled } from '../support/until';

const T = { timeout: scaled(60_000) };
const dir = mkdtempSync(join(tmpdir(), 'mcp-eras-'));
const running: HttpServerProcess[] = [];
after(async () => {
  await Promise.all(running.map((p) => p.stop()));
  rmSync(dir, { recursive: true, force: true });
});

let files = 0;
/** A fresh file the fake appends what it saw to: `spawn` per process, then each method. */
function recordFile(): string {
  return join(dir, `record-${++files}.txt`);
}

function recorded(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

async function modernHttp(...flags: string[]): Promise<HttpServerProcess> {
  const p = await startModernHttp(...flags);
  running.push(p);
  return p;
}

/** Starts a connection, runs `body`, and always closes it. */
async function connected<T>(config: ServerConfig, options: ConnectionOptions, body: (conn: McpConnection) => Promise<T>): Promise<T> {
  const conn = new McpConnection(config, { closeGraceMs: 200, ...options });
  try {
    await conn.start();
    return await body(conn);
  } finally {
    await conn.close();
  }
}

const person: ConnectionOptions['handlers'] = {
  elicitation: {
    modes: ['form', 'url'],
    handle: async (params) => (params.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: { colour: 'red' } }),
  },
  sampling: async () => ({ role: 'assistant', model: 'fake-model', content: { type: 'text', text: 'hi from the host' } }),
};

describe('both protocol eras', () => {
  for (const mode of [['--modern-only'], []] as const) {
    const what = mode.length ? 'a 2026-07-28-only server' : 'a server of both eras';
    test(`${what} over stdio is reached in the 2026-07-28 era`, T, async () => {
      const record = recordFile();
      await connected(fakeConfig('modern', 'mcp-modern', ...mode, `--record=${record}`), { handlers: person, roots: [dir] }, async (conn) => {
        assert.equal(conn.era, 'modern');
        assert.equal(conn.status().era, 'modern');
        assert.ok(conn.tools.some((t) => t.name === 'echo'));
        assert.equal(textOf(await conn.callTool('era')), 'modern');
        assert.equal(textOf(await conn.callTool('echo', { text: 'over stdio' })), 'over stdio');
        // The server's questions, as input_required, answered by the same handlers as 2025-11-25 requests.
        assert.equal(textOf(await conn.callTool('ask')), 'colour: red');
        assert.equal(textOf(await conn.callTool('sample')), 'model said: hi from the host');
        assert.match(textOf(await conn.callTool('roots')), /mcp-eras-/);
      });
      const seen = recorded(record);
      assert.equal(seen.filter((m) => m === 'spawn').length, 1, seen.join(' '));
      assert.ok(!seen.includes('initialize'), seen.join(' '));
    });

    test(`${what} over HTTP is reached in the 2026-07-28 era, with its headers`, T, async () => {
      const record = recordFile();
      const server = await modernHttp(...mode, `--record=${record}`);
      await connected({ name: 'modern', transport: 'http', url: server.url }, { handlers: person, roots: [dir] }, async (conn) => {
        assert.equal(conn.era, 'modern');
        assert.equal(conn.transportKind, 'streamable-http');
        assert.equal(textOf(await conn.callTool('echo', { text: 'over http' })), 'over http');
        assert.equal(textOf(await conn.callTool('ask')), 'colour: red');
      });
      // Every request names its method in Mcp-Method (the server routes on it, a load balancer may too).
      assert.ok(recorded(record).includes('POST tools/call'), recorded(record).join('\n'));
      assert.ok(!recorded(record).some((l) => /initialize/.test(l)));
    });
  }

  test('a 2026-07-28 server over HTTP is never sent ping (that era has none), a host that signs in included', T, async () => {
    const record = recordFile();
    const server = await modernHttp('--modern-only', `--record=${record}`);
    await connected({ name: 'modern', transport: 'http', url: server.url }, { oauth: testPerson(), roots: [dir] }, async (conn) => {
      assert.equal(conn.era, 'modern');
      assert.equal(textOf(await conn.callTool('echo', { text: 'no ping' })), 'no ping');
    });
    assert.ok(recorded(record).includes('POST tools/call'), recorded(record).join('\n'));
    assert.ok(!recorded(record).some((l) => /\bping\b/.test(l)), recorded(record).join('\n'));
  });

  test('a 2025-11-25 server is asked once, answers as before, and is not asked again', T, async () => {
    const record = recordFile();
    const eras = new MemoryEras();
    const config = fakeConfig('echo', 'mcp-echo', `--record=${record}`);
    await connected(config, { eras }, async (conn) => {
      assert.equal(conn.era, 'legacy');
      assert.equal(textOf(await conn.callTool('echo', { text: 'old' })), 'old');
    });
    assert.deepEqual(recorded(record).slice(0, 4), ['spawn', 'server/discover', 'initialize', 'notifications/initialized']);
    assert.equal(eras.recall(eraKey(config))?.era, 'legacy');
    const second = recordFile();
    const again = fakeConfig('echo', 'mcp-echo', `--record=${second}`);
    eras.remember(eraKey(again), { era: 'legacy', at: Date.now() });
    await connected(again, { eras }, async (conn) => assert.equal(textOf(await conn.callTool('echo', { text: 'known' })), 'known'));
    // Byte for byte what a 2025-11-25 client sends: initialize first, one process.
    assert.deepEqual(recorded(second).slice(0, 3), ['spawn', 'initialize', 'notifications/initialized']);
  });

  test('a 2025-11-25 server that exits when its first request is not initialize (rmcp) is started again in that era, and remembered', T, async () => {
    const record = recordFile();
    const eras = new MemoryEras();
    const logged: string[] = [];
    const config = fakeConfig('strict', 'mcp-echo', `--record=${record}`, '--initialize-first');
    await connected(config, { eras, log: (_, line) => logged.push(line) }, async (conn) => {
      assert.equal(conn.era, 'legacy');
      assert.equal(textOf(await conn.callTool('echo', { text: 'strict' })), 'strict');
    });
    assert.deepEqual(recorded(record).slice(0, 5), ['spawn', 'server/discover', 'spawn', 'initialize', 'notifications/initialized']);
    assert.ok(
      logged.some((l) => /exited when asked which era it speaks/.test(l)),
      logged.join('\n'),
    );
    assert.equal(eras.recall(eraKey(config))?.era, 'legacy');
    const second = recordFile();
    const again = fakeConfig('strict', 'mcp-echo', `--record=${second}`, '--initialize-first');
    eras.remember(eraKey(again), { era: 'legacy', at: Date.now() });
    await connected(again, { eras }, async (conn) => assert.equal(textOf(await conn.callTool('echo', { text: 'known' })), 'known'));
    assert.deepEqual(recorded(second).slice(0, 3), ['spawn', 'initialize', 'notifications/initialized']);
  });

  test('a server that exits whatever it is sent is started twice, then fails saying why', T, async () => {
    const eras = new MemoryEras();
    const config = fakeConfig('broken', 'mcp-echo', '--exit-at-start=3');
    const conn = new McpConnection(config, { closeGraceMs: 200, eras });
    try {
      await assert.rejects(conn.start(), /exited \(code 3\).*refusing to start: boom/s);
      assert.equal(conn.state, 'error');
      assert.equal(eras.recall(eraKey(config)), undefined, 'nothing learned of its era');
    } finally {
      await conn.close();
    }
  });

  test('a server whose config keeps it in 2025-11-25 (the bundled ones) is never asked, though it speaks 2026-07-28', T, async () => {
    const record = recordFile();
    const eras = new MemoryEras();
    const config: ServerConfig = { ...fakeConfig('dual', 'mcp-modern', `--record=${record}`), era: 'legacy' } as ServerConfig;
    await connected(config, { eras }, async (conn) => {
      assert.equal(conn.era, 'legacy');
      assert.equal(textOf(await conn.callTool('era', {})), 'legacy');
    });
    assert.deepEqual(recorded(record).slice(0, 3), ['spawn', 'initialize', 'notifications/initialized']);
    assert.equal(eras.recall(eraKey(config)), undefined, 'nothing to remember: it was never asked');
  });

  test('a known 2026-07-28 server is connected with no probe and one process', T, async () => {
    const eras = new MemoryEras();
    const first = recordFile();
    const config = (record: string): ServerConfig => fakeConfig('modern', 'mcp-modern', '--modern-only', `--record=${record}`);
    await connected(config(first), { eras }, async (conn) => assert.equal(conn.era, 'modern'));
    const verdict = eras.recall(eraKey(config(first)));
    assert.equal(verdict?.era, 'modern');
    assert.ok(verdict?.discover, 'the discover result is kept');
    const second = recordFile();
    eras.remember(eraKey(config(second)), verdict);
    await connected(config(second), { eras }, async (conn) => {
      assert.equal(conn.era, 'modern');
      assert.equal(textOf(await conn.callTool('era')), 'modern');
    });
    const seen = recorded(second);
    assert.equal(seen[0], 'spawn');
    assert.ok(!seen.includes('server/discover'), seen.join(' '));
    assert.equal(seen.filter((m) => m === 'spawn').length, 1);
  });

  test('a remembered era the server no longer speaks is forgotten and asked again', T, async () => {
    const eras = new MemoryEras();
    const modern = fakeConfig('modern', 'mcp-modern', '--modern-only');
    await connected(modern, { eras }, async () => undefined);
    const echo = fakeConfig('echo', 'mcp-echo');
    // As if this command had been a 2026-07-28 server last time.
    eras.remember(eraKey(echo), { ...(eras.recall(eraKey(modern)) as NonNullable<ReturnType<MemoryEras['recall']>>) });
    const logged: string[] = [];
    await connected(echo, { eras, log: (_s, line) => logged.push(line) }, async (conn) => {
      assert.equal(conn.era, 'legacy');
      assert.equal(textOf(await conn.callTool('echo', { text: 'still works' })), 'still works');
    });
    assert.equal(eras.recall(eraKey(echo))?.era, 'legacy');
    assert.ok(
      logged.some((l) => /no longer answers as a 2026-07-28 server/.test(l)),
      logged.join('\n'),
    );
  });

  test('in the 2026-07-28 era, logs come with the requests that asked for them, at the level set', T, async () => {
    const lines: Array<[SinkLevel, string]> = [];
    const sink: ServerLogSink = { log: (level, text) => void lines.push([level, text]) };
    const handlers = { logging: { sink: () => sink, level: 'info' as const } };
    await connected(fakeConfig('modern', 'mcp-modern', '--modern-only'), { handlers }, async (conn) => {
      assert.equal(textOf(await conn.callTool('log')), 'logged');
      assert.deepEqual(
        lines.filter(([, t]) => / from modern-only$/.test(t)).map(([level, t]) => `${level} ${t}`),
        ['info info from modern-only', 'warn warning from modern-only', 'error error from modern-only'],
      );
    });
  });

  test('in the 2026-07-28 era, subscriptions and list changes arrive on a listen stream', T, async () => {
    for (const config of [
      fakeConfig('modern', 'mcp-modern', '--modern-only'),
      { name: 'modern', transport: 'http' as const, url: (await modernHttp('--modern-only')).url },
    ]) {
      await connected(config, {}, async (conn) => {
        await conn.subscribeResource('note://a');
        const updated = new Promise<string>((resolve) => conn.on('resourceUpdated', resolve));
        assert.equal(textOf(await conn.callTool('touch')), 'touched');
        assert.equal(await updated, 'note://a');
        const listed = new Promise<void>((resolve) => conn.on('change', () => conn.tools.some((t) => t.name === 'added') && resolve()));
        await conn.callTool('add_tool', { name: 'added' });
        await listed;
        assert.equal(textOf(await conn.callTool('added')), 'added');
      });
    }
  });

  test('in the 2026-07-28 era, a call that runs out of time is cancelled on the server', T, async () => {
    for (const config of [
      fakeConfig('modern', 'mcp-modern', '--modern-only'),
      { name: 'modern', transport: 'http' as const, url: (await modernHttp('--modern-only')).url },
    ]) {
      await connected(config, {}, async (conn) => {
        await assert.rejects(conn.callTool('hang', {}, { timeoutMs: 300 }), /did not answer within 0\.30 s; it was cancelled/);
        // Over stdio notifications/cancelled, over HTTP the request's stream closed: either way the server stopped.
        let count = '0';
        for (let i = 0; i < 50 && count === '0'; i++) count = textOf(await conn.callTool('cancelled'));
        assert.equal(count, '1');
      });
    }
  });
});
