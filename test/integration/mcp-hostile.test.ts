// The host against servers that break the rules outside testing found: endless progress, their own JSON-RPC
// errors, configs that cannot spawn, a closed stdout, broken tool schemas, task-only tools, late progress.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAILURE_META_KEY, McpHub } from '../../src/core/mcp/hub/hub';
import type { ServerConfig } from '../../src/core/mcp/types';
import { fakeConfig, textOf, waitForStatus, withHub as hubFor } from './mcp-support';

const FAST = { restart: { baseDelayMs: 50, maxRestarts: 0, windowMs: 60_000 }, changeDebounceMs: 1 };

function withHub(configs: ServerConfig[], body: (hub: McpHub, log: string[]) => Promise<void>): Promise<void> {
  const log: string[] = [];
  return hubFor(configs, { ...FAST, connection: { log: (server, line) => log.push(`${server}: ${line}`) } }, async (hub) => {
    await hub.settled();
    await body(hub, log);
  });
}

function kind(result: { _meta?: Record<string, unknown> }): unknown {
  return result._meta?.[FAILURE_META_KEY];
}

describe('hostile MCP servers', () => {
  test('a tool that reports progress forever is stopped at its total limit, and the server is told', async () => {
    await withHub([fakeConfig('raw', 'mcp-raw')], async (hub) => {
      const r = await hub.callTool('raw__spin', {}, { timeoutMs: 300, maxTotalTimeoutMs: 1500 });
      assert.equal(r.isError, true);
      assert.equal(kind(r), 'timeout');
      assert.match(textOf(r), /did not finish within 1\.5 s, its time limit whatever progress it reports; it was cancelled/);
      const seen = JSON.parse(textOf(await hub.callTool('raw__cancellations'))) as unknown[];
      assert.equal(seen.length, 1, 'notifications/cancelled reached the server');
    });
  });

  test('with no total limit given, the connection still applies one', async () => {
    const hub = new McpHub([fakeConfig('raw', 'mcp-raw')], { ...FAST, connection: { callTotalTimeoutMs: 800 } });
    hub.start();
    try {
      await hub.settled();
      const r = await hub.callTool('raw__spin', {}, { timeoutMs: 300 });
      assert.equal(kind(r), 'timeout');
      assert.match(textOf(r), /did not finish within 0\.80 s/);
    } finally {
      await hub.dispose();
    }
  });

  test("a server's own JSON-RPC errors come through with their code and message", async () => {
    await withHub([fakeConfig('raw', 'mcp-raw')], async (hub) => {
      for (const [code, message] of [
        [-32000, 'custom failure'],
        [-32001, 'quota exhausted'],
        [-32602, 'Invalid params: x must be a number'],
      ] as const) {
        const r = await hub.callTool('raw__fail', { code, message }, { timeoutMs: 20_000 });
        assert.equal(r.isError, true);
        assert.equal(kind(r), 'server-error');
        assert.equal(textOf(r), `server raw answered error ${code}: ${message}`);
      }
      assert.equal(hub.status('raw')?.state, 'ready', 'an error answer leaves the server running');
    });
  });

  test('a result that is no CallToolResult is refused, saying what is wrong, and the server stays ready', async () => {
    await withHub([fakeConfig('raw', 'mcp-raw')], async (hub) => {
      for (let i = 0; i < 2; i++) {
        const r = await hub.callTool('raw__malformed', {}, { timeoutMs: 20_000 });
        assert.equal(r.isError, true);
        assert.match(
          textOf(r),
          /^tool "malformed" on server raw failed: Invalid result for tools\/call: [\s\S]*"content"[\s\S]*expected array, received string/,
        );
      }
      assert.equal(hub.status('raw')?.state, 'ready');
      assert.equal(textOf(await hub.callTool('raw__echo', { text: 'ok' })), 'ok');
    });
  });

  test('configs that cannot spawn become errors of their own; the others run; nothing is unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const dir = mkdtempSync(join(tmpdir(), 'mcp-dir-command-'));
      const configs = [
        { ...fakeConfig('nul', 'mcp-raw'), args: ['bad\0arg'] },
        { ...fakeConfig('nulenv', 'mcp-raw'), env: { X: 'a\0b' } },
        { name: 'http', transport: 'http', url: 'http://127.0.0.1:1/mcp' } as unknown as ServerConfig,
        { name: 'nocommand', transport: 'stdio', args: [] } as unknown as ServerConfig,
        { name: 'directory', transport: 'stdio', command: dir, args: [] } as ServerConfig,
        fakeConfig('good', 'mcp-raw'),
      ];
      await withHub(configs, async (hub) => {
        const states = Object.fromEntries(hub.statuses().map((s) => [s.name, s.state]));
        assert.deepEqual(states, { nul: 'error', nulenv: 'error', http: 'error', nocommand: 'error', directory: 'error', good: 'ready' });
        assert.match(hub.status('nul')?.error ?? '', /NUL byte/);
        assert.match(hub.status('nulenv')?.error ?? '', /NUL byte/);
        // Port 1 is one fetch never connects to: refused at once, and said so.
        assert.match(hub.status('http')?.error ?? '', /server http: could not reach http:\/\/127\.0\.0\.1:1\/mcp: bad port/);
        assert.match(hub.status('nocommand')?.error ?? '', /no command/);
        assert.match(hub.status('directory')?.error ?? '', /could not run|EACCES/);
        assert.equal(textOf(await hub.callTool('good__echo', { text: 'still here' })), 'still here');
      });
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  test('a server that closes its stdout but keeps running is stopped, and calls fail at once', async () => {
    await withHub([fakeConfig('mute', 'mcp-raw', '--close-stdout-after-init')], async (hub) => {
      const s = await waitForStatus(hub, 'mute', (st) => st.state === 'error');
      assert.match(s.error ?? '', /closed its output \(stdout\) but kept running/);
      const r = await hub.callTool('mute__echo', { text: 'x' }, { timeoutMs: 60_000 });
      assert.equal(r.isError, true);
      // Refused because the server is down, saying why, not ended by the call's 60 s timeout.
      assert.notEqual(kind(r), 'timeout', textOf(r));
      assert.match(textOf(r), /server mute is not ready; .*closed its output \(stdout\) but kept running/);
    });
  });

  test('a tool without an inputSchema is repaired, an invalid one is left out and logged; the rest work', async () => {
    await withHub([fakeConfig('raw', 'mcp-raw')], async (hub, log) => {
      const names = hub.status('raw')?.tools.map((t) => t.name) ?? [];
      assert.ok(names.includes('echo') && names.includes('noschema'), names.join(', '));
      assert.ok(!names.includes('badschema'));
      assert.deepEqual(hub.status('raw')?.tools.find((t) => t.name === 'noschema')?.inputSchema, { type: 'object' });
      assert.ok(
        log.some((l) => /left out tool "badschema": inputSchema\.type/.test(l)),
        log.join('\n'),
      );
      assert.equal(textOf(await hub.callTool('raw__echo', { text: 'ok' })), 'ok');
    });
  });

  test('a task-only tool of a server without tasks is not offered to the model, stays in the status, and a call by name says why', async () => {
    await withHub([fakeConfig('raw', 'mcp-raw')], async (hub) => {
      assert.ok(!hub.tools().some((t) => t.qualifiedName === 'raw__taskonly'));
      assert.ok(hub.status('raw')?.tools.some((t) => t.name === 'taskonly'));
      const r = await hub.callTool('raw__taskonly');
      assert.equal(r.isError, true);
      assert.match(textOf(r), /runs only as a task \(execution\.taskSupport "required"\), but the server does not declare tasks for tools\/call/);
    });
  });

  test('late progress after a cancel is dropped quietly; real errors are still logged', async () => {
    await withHub([fakeConfig('raw', 'mcp-raw')], async (hub, log) => {
      const controller = new AbortController();
      let progressed!: () => void;
      const first = new Promise<void>((resolve) => (progressed = resolve));
      const call = hub.callTool('raw__spin', {}, { signal: controller.signal, onProgress: () => progressed() });
      await first;
      controller.abort();
      assert.equal(kind(await call), 'cancelled');
      // The server goes on reporting progress for a second after the cancel: its answer here comes after the last of it.
      const { late } = JSON.parse(textOf(await hub.callTool('raw__late_progress', {}, { timeoutMs: 60_000 }))) as { late: number };
      assert.ok(late > 0, 'the server sent progress after the cancel');
      assert.equal(textOf(await hub.callTool('raw__junk')), 'junk sent');
      assert.deepEqual(
        log.filter((l) => /progress/i.test(l)),
        [],
        'late progress was logged as an error',
      );
      assert.ok(
        log.some((l) => /not JSON|Unexpected token|JSON/.test(l)),
        `the junk line was not logged:\n${log.join('\n')}`,
      );
    });
  });
});
