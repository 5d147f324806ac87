import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bundledServerConfigs } from '../../src/core/mcp/hub/bundled-servers';
import { agentHome } from '../../src/core/chat/chat-home';
import { FAILURE_META_KEY, McpHub, type HubOptions } from '../../src/core/mcp/hub/hub';
import type { ServerConfig } from '../../src/core/mcp/types';
import { untilReadyEnough } from '../../src/core/mcp/hub/readiness';
import { fake, fakeConfig, isAlive, repoRoot, textOf, waitForStatus, withHub as hubFor } from './mcp-support';
import { scaled } from '../support/until';

const T = { timeout: scaled(30_000) };
/** Tests that start a server several times: a loaded machine takes seconds for each. */
const SLOW = { timeout: scaled(120_000) };
const withHub = (configs: ServerConfig[], body: (hub: McpHub) => Promise<void>, options: HubOptions = FAST): Promise<void> => hubFor(configs, options, body);

const FAST: HubOptions = {
  connection: { closeGraceMs: 200, initializeTimeoutMs: 10_000 },
  restart: { baseDelayMs: 10, maxDelayMs: 50, maxRestarts: 2, windowMs: 60_000 },
  changeDebounceMs: 5,
};

const failureOf = (r: { _meta?: Record<string, unknown> }): unknown => r._meta?.[FAILURE_META_KEY];

describe('McpHub', () => {
  test('start returns at once; servers come up in parallel; tools are <server>__<tool>', T, async () => {
    await withHub([fakeConfig('a', 'mcp-echo'), fakeConfig('b', 'mcp-echo')], async (hub) => {
      assert.ok(hub.statuses().every((s) => s.state === 'starting'));
      await hub.settled();
      assert.deepEqual(
        hub.statuses().map((s) => [s.name, s.state]),
        [
          ['a', 'ready'],
          ['b', 'ready'],
        ],
      );
      const names = hub.tools().map((t) => t.qualifiedName);
      // Two servers with the same tool name: both reach the model under distinct names.
      assert.ok(names.includes('a__echo') && names.includes('b__echo'));
      assert.equal(new Set(names).size, names.length);
      assert.equal(textOf(await hub.callTool('a__echo', { text: 'from a' })), 'from a');
      assert.equal(textOf(await hub.callTool('b__echo', { text: 'from b' })), 'from b');
      const read = await hub.readResource('a', 'echo://readme');
      assert.equal((read.contents[0] as { text: string }).text, 'echo readme');
      const prompt = await hub.getPrompt('b', 'greet', { who: 'Bo' });
      assert.deepEqual(prompt.messages[0]?.content, { type: 'text', text: 'Hello Bo' });
      assert.deepEqual(hub.listResourceTemplates(), []);
    });
  });

  test('server names outside the tool alphabet still give distinct valid names', T, async () => {
    await withHub([fakeConfig('my.server', 'mcp-echo'), fakeConfig('my server', 'mcp-echo')], async (hub) => {
      await hub.settled();
      const echoes = hub.tools().filter((t) => t.tool.name === 'echo');
      assert.equal(echoes.length, 2);
      const [x, y] = echoes.map((t) => t.qualifiedName);
      assert.notEqual(x, y);
      for (const n of [x, y]) assert.match(n ?? '', /^[a-zA-Z0-9_-]{1,64}$/);
      assert.equal(textOf(await hub.callTool(y ?? '', { text: 'ok' })), 'ok');
    });
  });

  test('unknown tools and servers that are not ready give clear isError results, not throws', T, async () => {
    const configs = [
      fakeConfig('echo', 'mcp-echo'),
      fakeConfig('stuck', 'mcp-no-init'),
      { name: 'ghost', transport: 'stdio' as const, command: 'no-such-command-xyz', args: [] },
    ];
    await withHub(
      configs,
      async (hub) => {
        await waitForStatus(hub, 'echo', (s) => s.state === 'ready');
        const unknown = await hub.callTool('echo__nope', {});
        assert.equal(unknown.isError, true);
        assert.equal(failureOf(unknown), 'unknown-tool');
        assert.match(textOf(unknown), /unknown tool echo__nope/);
        const stuck = await hub.callTool('stuck__anything', {});
        assert.equal(stuck.isError, true);
        assert.match(textOf(stuck), /server stuck is not ready; it is starting/);
        await assert.rejects(hub.readResource('stuck', 'x://y'), /server stuck is not ready/);
        const ghost = await waitForStatus(hub, 'ghost', (s) => s.state === 'error');
        assert.match(ghost.error ?? '', /command "no-such-command-xyz" was not found/);
      },
      { ...FAST, connection: { ...FAST.connection, initializeTimeoutMs: 60_000, closeGraceMs: 50 } },
    );
  });

  test('a server that crashes mid-call fails the call at once, restarts, and serves again', T, async () => {
    await withHub([fakeConfig('echo', 'mcp-echo')], async (hub) => {
      const first = await waitForStatus(hub, 'echo', (s) => s.state === 'ready');
      const crashed = await hub.callTool('echo__crash', {}, { timeoutMs: 120_000 });
      assert.equal(crashed.isError, true);
      assert.equal(failureOf(crashed), 'exited');
      assert.match(textOf(crashed), /server echo exited \(code 1\) during the call; last stderr: [^]*crashing on purpose/);
      const again = await waitForStatus(hub, 'echo', (s) => s.state === 'ready' && s.restarts === 1);
      assert.notEqual(again.pid, first.pid);
      assert.equal(isAlive(first.pid as number), false);
      assert.equal(textOf(await hub.callTool('echo__echo', { text: 'back' })), 'back');
    });
  });

  test('a server that keeps crashing is restarted with backoff, then given up on; restart() retries', T, async () => {
    await withHub([fakeConfig('flaky', 'mcp-echo', '--exit-at-start=3')], async (hub) => {
      const seen: string[] = [];
      hub.on('change', () => {
        const s = hub.status('flaky');
        if (s?.detail) seen.push(s.detail);
      });
      const failed = await waitForStatus(hub, 'flaky', (s) => s.state === 'error' && /Gave up/.test(s.error ?? ''));
      assert.match(
        failed.error ?? '',
        /server flaky exited \(code 3\) before answering initialize; last stderr: echo: refusing to start: boom\. Gave up after 2 restarts within 60 s/,
      );
      assert.equal(failed.restarts, 2);
      assert.ok(
        seen.some((d) => /restarting in 0\.01 s \(restart 1 of 2\)/.test(d)),
        seen.join('\n'),
      );
      // A manual restart starts over with a fresh budget, and gives up the same way.
      seen.length = 0;
      await hub.restart('flaky');
      const status = hub.status('flaky');
      assert.equal(status?.state, 'error');
      assert.match(status?.error ?? '', /Gave up after 2 restarts/);
      assert.equal(status?.restarts, 2);
      assert.ok(
        seen.some((d) => /restart 1 of 2/.test(d)),
        seen.join('\n'),
      );
    });
  });

  test('a server slower than its start limit is tried again with more time and comes up; it reads "starting" meanwhile, never "error"', SLOW, async () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'hub-slow-')), 'started');
    const seen: Array<{ state: string; attempt?: number; detail?: string }> = [];
    await withHub(
      [fakeConfig('slow', 'mcp-echo', `--slow-first-start=${marker}`)],
      async (hub) => {
        hub.on('change', () => {
          const s = hub.status('slow');
          if (s) seen.push({ state: s.state, attempt: s.attempt?.number, detail: s.detail });
        });
        const up = await waitForStatus(hub, 'slow', (s) => s.state !== 'starting');
        assert.equal(up.state, 'ready', up.error);
        assert.ok(existsSync(marker), 'the first start ran (and stalled)');
        assert.deepEqual(
          seen.filter((s) => s.state === 'error'),
          [],
          'never reported as failed while it was being tried again',
        );
        assert.ok(
          seen.some((s) => s.state === 'starting' && /did not answer (initialize|server\/discover).* within 5 s/.test(s.detail ?? '')),
          JSON.stringify(seen),
        );
        assert.ok(
          seen.some((s) => s.state === 'starting' && s.attempt === 2 && /try 2, given 10 s to answer initialize/.test(s.detail ?? '')),
          JSON.stringify(seen),
        );
        assert.equal(textOf(await hub.callTool('slow__echo', { text: 'late but here' })), 'late but here');
      },
      { ...FAST, startLimitMs: () => 5000 },
    );
  });

  test('a server slow to say its era (server/discover) that then refuses the 2025-11-25 initialize is tried again, not failed for good', SLOW, async () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'hub-discover-')), 'started');
    await withHub(
      [fakeConfig('slowera', 'mcp-raw', `--slow-first-discover=${marker}`)],
      async (hub) => {
        const up = await waitForStatus(hub, 'slowera', (s) => s.state !== 'starting');
        assert.equal(up.state, 'ready', up.error);
        assert.ok(existsSync(marker), 'the first start took the 2026-07-28 era and refused initialize');
        assert.equal(up.restarts, 1);
      },
      { ...FAST, startLimitMs: () => 2000 },
    );
  });

  test('a server that never answers initialize is given up on after its tries, saying the limits it was given', SLOW, async () => {
    await withHub(
      [fakeConfig('mute', 'mcp-no-init')],
      async (hub) => {
        const failed = await waitForStatus(hub, 'mute', (s) => s.state !== 'starting');
        assert.equal(failed.state, 'error');
        assert.match(
          failed.error ?? '',
          /did not answer (initialize|server\/discover) within 0\.80 s.*\. Gave up after 4 tries \(given 0\.20 s, 0\.40 s, 0\.80 s, 0\.80 s\)/,
        );
      },
      { ...FAST, connection: { ...FAST.connection, closeGraceMs: 50 }, restart: { ...FAST.restart, maxRestarts: 5 }, startLimitMs: () => 200 },
    );
  });

  test("a mute server's grace is waited once, from its start: a second wait (the turn after the CLI's) does not wait again", SLOW, async () => {
    await withHub(
      [fakeConfig('mute', 'mcp-no-init')],
      async (hub) => {
        await untilReadyEnough(hub, 300);
        assert.equal(hub.status('mute')?.state, 'starting');
        const second = untilReadyEnough(hub, 300).then(() => 'resolved at once');
        const outcome = await Promise.race([second, new Promise((resolve) => setImmediate(() => resolve('waited')))]);
        assert.equal(outcome, 'resolved at once');
      },
      { ...FAST, connection: { ...FAST.connection, initializeTimeoutMs: 60_000 } },
    );
  });

  test('10,000 tools: listed across pages, every one offered to the model and callable; app-only tools never offered', T, async () => {
    await withHub([fakeConfig('many', 'mcp-many-tools', '10000', '3'), fakeConfig('echo', 'mcp-echo')], async (hub) => {
      await hub.settled();
      assert.equal(hub.status('many')?.tools.length, 10_003);
      const forModel = hub.tools();
      assert.equal(forModel.length, 10_000 + (hub.status('echo')?.tools.length ?? 0), 'no cap: the agent decides what a request carries');
      assert.equal(new Set(forModel.map((t) => t.qualifiedName)).size, forModel.length);
      assert.ok(
        forModel.some((t) => t.server === 'echo'),
        'the small server is not crowded out',
      );
      assert.equal(hub.findTool('many__tool_9999')?.tool.name, 'tool_9999');
      assert.equal(textOf(await hub.callTool('many__tool_9999', {})), 'tool_9999');
      // Made for the server's view (_meta.ui.visibility ["app"]): not the model's, but still callable by a view.
      assert.ok(!forModel.some((t) => t.tool.name.startsWith('view_')));
      assert.equal(hub.findTool('many__view_0'), undefined);
      assert.equal(textOf(await hub.callTool('many__view_0', {})), 'view_0');
    });
  });

  test('list_changed: a new tool shows up with a change event and can be called', T, async () => {
    await withHub([fakeConfig('echo', 'mcp-echo')], async (hub) => {
      await hub.settled();
      assert.equal(hub.findTool('echo__added_1'), undefined);
      const changed = new Promise<void>((resolve) => {
        const off = hub.on('change', () => {
          if (hub.findTool('echo__added_1')) {
            off();
            resolve();
          }
        });
      });
      assert.equal(textOf(await hub.callTool('echo__add_tool', {})), 'added_1');
      await changed;
      assert.equal(textOf(await hub.callTool('echo__added_1', {})), 'added_1');
    });
  });

  test('update adds, removes and restarts servers by config; dispose leaves no process behind', T, async () => {
    const hub = new McpHub([fakeConfig('a', 'mcp-echo'), fakeConfig('b', 'mcp-echo')], FAST);
    hub.start();
    await hub.settled();
    const pidA = hub.status('a')?.pid as number;
    const pidB = hub.status('b')?.pid as number;
    await hub.update([fakeConfig('a', 'mcp-echo'), fakeConfig('c', 'mcp-echo', '--name=c')]);
    assert.deepEqual(
      hub.statuses().map((s) => s.name),
      ['a', 'c'],
    );
    assert.equal(hub.status('a')?.pid, pidA);
    assert.equal(isAlive(pidB), false);
    await hub.settled();
    assert.equal(hub.status('c')?.serverVersion, 'c 1.0.0');
    const pids = hub.statuses().map((s) => s.pid as number);
    await hub.dispose();
    for (const pid of pids) assert.equal(isAlive(pid), false);
  });

  test('dispose while servers are still starting leaves no process behind', T, async () => {
    const hub = new McpHub([fakeConfig('stuck', 'mcp-no-init'), fakeConfig('echo', 'mcp-echo')], {
      ...FAST,
      connection: { initializeTimeoutMs: 60_000, closeGraceMs: 50 },
    });
    hub.start();
    const pids = hub.statuses().map((s) => s.pid);
    assert.ok(
      pids.every((pid) => typeof pid === 'number'),
      'pids are known as soon as the processes are spawned',
    );
    await hub.dispose();
    for (const pid of pids) assert.equal(isAlive(pid as number), false);
    assert.deepEqual(
      hub.statuses().map((s) => s.state),
      ['stopped', 'stopped'],
    );
  });

  test('bundledServerConfigs: only bundles that exist, run as node with ELECTRON_RUN_AS_NODE', T, async () => {
    const dist = mkdtempSync(join(tmpdir(), 'mcp-dist-'));
    const workspace = mkdtempSync(join(tmpdir(), 'mcp-ws-'));
    mkdirSync(join(dist, 'servers'));
    // A stand-in "workspace" bundle: the echo fake, named by its workspace argument.
    writeFileSync(
      join(dist, 'servers', 'workspace.js'),
      `process.argv.push('--name=' + require('node:path').basename(process.argv[2]));\nrequire(${JSON.stringify(fake('mcp-echo'))});\n`,
    );
    const configs = bundledServerConfigs(dist, workspace, { SOME_KEY: 'v', MCP_AGENT_X: 'x', BRAVE_API_KEY: 'b' });
    assert.deepEqual(
      configs.map((c) => c.name),
      ['workspace'],
    );
    assert.equal(configs[0]?.command, process.execPath);
    assert.deepEqual(configs[0]?.env, { MCP_AGENT_X: 'x', NODE_COMPILE_CACHE: join(agentHome({}), 'compile-cache'), ELECTRON_RUN_AS_NODE: '1' });
    await withHub(configs, async (hub) => {
      await hub.settled();
      const s = hub.status('workspace');
      assert.equal(s?.state, 'ready', s?.error);
      assert.match(s?.serverVersion ?? '', /^mcp-ws-/);
    });
  });

  test('the real bundled workspace server starts under the hub', T, async () => {
    const dist = join(repoRoot(), 'dist');
    assert.ok(existsSync(join(dist, 'servers', 'workspace.js')), 'dist/servers/workspace.js is missing: run `node esbuild.mjs` first');
    const workspace = mkdtempSync(join(tmpdir(), 'mcp-real-ws-'));
    const configs = bundledServerConfigs(dist, workspace, {}).filter((c) => c.name === 'workspace');
    await withHub(configs, async (hub) => {
      await hub.settled();
      const s = hub.status('workspace');
      assert.equal(s?.state, 'ready', s?.error);
      assert.ok((s?.tools.length ?? 0) > 0);
      assert.ok(hub.tools().every((tool) => tool.qualifiedName.startsWith('workspace__')));
    });
  });
});
