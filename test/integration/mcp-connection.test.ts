import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpConnection, type ConnectionOptions } from '../../src/core/mcp/session/connection';
import { McpRequestError, McpStartError } from '../../src/core/mcp/session/errors';
import { fakeConfig, isAlive, textOf } from './mcp-support';
import { scaled } from '../support/until';

const T = { timeout: scaled(20_000) };

async function connect(args: string[] = [], options: ConnectionOptions = {}, script = 'mcp-echo'): Promise<McpConnection> {
  const conn = new McpConnection(fakeConfig('echo', script, ...args), { closeGraceMs: 200, ...options });
  await conn.start();
  return conn;
}

async function cancellations(conn: McpConnection): Promise<Array<{ tool: string; reason: string }>> {
  return JSON.parse(textOf(await conn.callTool('cancellations'))) as Array<{ tool: string; reason: string }>;
}

describe('McpConnection over real stdio', () => {
  test('starts, lists what the server declares, calls, closes and the child is gone', T, async () => {
    const conn = await connect();
    assert.equal(conn.state, 'ready');
    const names = conn.tools.map((t) => t.name);
    for (const n of ['echo', 'slow', 'big', 'crash', 'hang']) assert.ok(names.includes(n), n);
    assert.deepEqual(
      conn.resources.map((r) => r.uri),
      ['echo://readme'],
    );
    assert.deepEqual(
      conn.prompts.map((p) => p.name),
      ['greet'],
    );
    assert.equal(conn.status().serverVersion, 'echo 1.0.0');
    assert.deepEqual(await conn.callTool('echo', { text: 'hi' }), { content: [{ type: 'text', text: 'hi' }] });
    const read = await conn.readResource('echo://readme');
    assert.equal((read.contents[0] as { text: string }).text, 'echo readme');
    const prompt = await conn.getPrompt('greet', { who: 'Ada' });
    assert.deepEqual(prompt.messages[0]?.content, { type: 'text', text: 'Hello Ada' });
    const pid = conn.pid;
    assert.ok(pid && isAlive(pid));
    await conn.close();
    assert.equal(conn.state, 'stopped');
    assert.equal(isAlive(pid), false);
  });

  test('offers the workspace as a root and announces changes', T, async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-roots-')));
    const conn = await connect([], { roots: [dir] });
    try {
      const roots = JSON.parse(textOf(await conn.callTool('roots'))) as Array<{ uri: string }>;
      assert.deepEqual(
        roots.map((r) => r.uri),
        [pathToFileURL(dir).href],
      );
      await conn.setRoots([]);
      assert.deepEqual(JSON.parse(textOf(await conn.callTool('roots'))), []);
    } finally {
      await conn.close();
    }
  });

  test('a server that never answers initialize fails with a diagnosis, and is killed', T, async () => {
    // mcp-no-init also ignores stdin EOF and SIGTERM, so this exercises the SIGKILL step.
    // 1.5 s: enough for a loaded machine to start node and print the stderr line the diagnosis quotes.
    const conn = new McpConnection(fakeConfig('stuck', 'mcp-no-init'), { initializeTimeoutMs: 1500, closeGraceMs: 100 });
    await assert.rejects(conn.start(), (err: unknown) => {
      assert.ok(err instanceof McpStartError);
      assert.equal(err.kind, 'timeout');
      assert.match(err.message, /did not answer initialize within 1\.5 s; last stderr: no-init: warming up/);
      return true;
    });
    assert.equal(conn.state, 'error');
    assert.match(conn.error ?? '', /did not answer initialize/);
    const pid = conn.pid;
    assert.ok(pid);
    assert.equal(isAlive(pid), false);
  });

  test('a command that does not exist fails with a clear error', T, async () => {
    const conn = new McpConnection({ name: 'ghost', transport: 'stdio', command: 'definitely-not-a-command-42', args: [] });
    await assert.rejects(conn.start(), (err: unknown) => {
      assert.ok(err instanceof McpStartError);
      assert.equal(err.kind, 'spawn');
      assert.match(err.message, /command "definitely-not-a-command-42" was not found/);
      return true;
    });
  });

  test('a server that exits before initialize reports its exit code and stderr', T, async () => {
    const conn = new McpConnection(fakeConfig('quitter', 'mcp-echo', '--exit-at-start=3'));
    await assert.rejects(conn.start(), (err: unknown) => {
      assert.ok(err instanceof McpStartError);
      assert.equal(err.kind, 'exited');
      assert.match(err.message, /exited \(code 3\) before answering initialize; last stderr: echo: refusing to start: boom/);
      return true;
    });
  });

  test('text printed to stdout before and between the JSON is skipped', T, async () => {
    const logged: string[] = [];
    const conn = await connect(['--junk'], { log: (_s, line) => logged.push(line) });
    try {
      assert.equal(conn.state, 'ready');
      assert.equal(textOf(await conn.callTool('echo', { text: 'one' })), 'one');
      assert.equal(textOf(await conn.callTool('echo', { text: 'two' })), 'two');
      assert.ok(
        logged.some((l) => l.includes('hello from a chatty server')),
        logged.join('\n'),
      );
    } finally {
      await conn.close();
    }
  });

  test('a call that never answers times out, sends notifications/cancelled, and the session goes on', T, async () => {
    const conn = await connect();
    try {
      await assert.rejects(conn.callTool('hang', {}, { timeoutMs: 200 }), (err: unknown) => {
        assert.ok(err instanceof McpRequestError);
        assert.equal(err.kind, 'timeout');
        assert.match(err.message, /tool "hang" on server echo did not answer within 0\.20 s; it was cancelled/);
        return true;
      });
      const seen = await cancellations(conn);
      assert.equal(seen.length, 1);
      assert.equal(seen[0]?.tool, 'hang');
      assert.match(seen[0]?.reason ?? '', /timed out/i);
    } finally {
      await conn.close();
    }
  });

  test('an aborted call fails at once and the server is told', T, async () => {
    const conn = await connect([], { callTimeoutMs: 120_000 });
    try {
      const ac = new AbortController();
      // Abort once the server says it is working on it: a real in-flight cancel.
      const call = conn.callTool('hang', {}, { signal: ac.signal, onProgress: () => ac.abort(new Error('user pressed stop')) });
      await assert.rejects(call, (err: unknown) => {
        assert.ok(err instanceof McpRequestError);
        assert.equal(err.kind, 'cancelled');
        assert.match(err.message, /was cancelled: user pressed stop/);
        return true;
      });
      const seen = await cancellations(conn);
      assert.deepEqual(
        seen.map((s) => s.tool),
        ['hang'],
      );
      assert.equal(seen[0]?.reason, 'user pressed stop', 'the words of whoever stopped it, not "Error: ..."');
    } finally {
      await conn.close();
    }
  });

  test('a call stopped without words tells the server so in words, not as "AbortError: ..."', T, async () => {
    const conn = await connect([], { callTimeoutMs: 120_000 });
    try {
      const ac = new AbortController();
      await assert.rejects(conn.callTool('hang', {}, { signal: ac.signal, onProgress: () => ac.abort() }), /was cancelled/);
      const seen = await cancellations(conn);
      assert.deepEqual(
        seen.map((s) => s.reason),
        ['the call was stopped (it is no longer wanted)'],
      );
    } finally {
      await conn.close();
    }
  });

  test('Stop cancels only what still runs: nothing answered earlier in the turn is cancelled again', T, async () => {
    const conn = await connect([], { callTimeoutMs: 120_000 });
    try {
      const turn = new AbortController();
      const signal = turn.signal;
      assert.equal(textOf(await conn.callTool('echo', { text: 'one' }, { signal })), 'one');
      assert.equal(textOf(await conn.callTool('echo', { text: 'two' }, { signal })), 'two');
      await conn.readResource('echo://readme', { signal });
      await conn.getPrompt('greet', { who: 'you' }, { signal });
      const call = conn.callTool('hang', {}, { signal, onProgress: () => turn.abort(new Error('the person pressed Stop')) });
      await assert.rejects(call, /was cancelled: the person pressed Stop/);
      const seen = await cancellations(conn);
      assert.deepEqual(
        seen.map((s) => s.tool),
        ['hang'],
      );
    } finally {
      await conn.close();
    }
  });

  test('a -32042 "URL elicitation required" asks the person to open the page, then the call is made again', T, async () => {
    const asked: string[] = [];
    const conn = await connect([], {
      handlers: {
        elicitation: {
          modes: ['url'],
          handle: async (params) => (asked.push(params.mode === 'url' ? `${params.message} ${params.url}` : 'a form'), { action: 'accept' }),
        },
      },
    });
    try {
      const result = await conn.callTool('members');
      assert.equal(textOf(result), 'welcome, member');
      assert.deepEqual(asked, ['Sign up to see this https://example.com/sign-up?from=echo']);
    } finally {
      await conn.close();
    }
  });

  test('a -32042 the person declines reaches the model saying which page was needed', T, async () => {
    const conn = await connect([], { handlers: { elicitation: { modes: ['url'], handle: async () => ({ action: 'decline' }) } } });
    try {
      const result = await conn.callTool('members');
      assert.equal(result.isError, true);
      assert.match(
        textOf(result),
        /needs the person to open https:\/\/example\.com\/sign-up\?from=echo first \(Sign up to see this\); they did not \(decline\)/,
      );
    } finally {
      await conn.close();
    }
  });

  test('a server that exits mid-call fails the pending calls at once with the exit and stderr', T, async () => {
    const conn = await connect([], { callTimeoutMs: 120_000 });
    const pid = conn.pid as number;
    const crashes: string[] = [];
    conn.on('crash', (_info, message) => crashes.push(message));
    const other = conn.callTool('hang');
    await assert.rejects(conn.callTool('crash'), (err: unknown) => {
      assert.ok(err instanceof McpRequestError);
      assert.equal(err.kind, 'exited');
      assert.match(err.message, /server echo exited \(code 1\) during the call; last stderr: [^]*crashing on purpose/);
      return true;
    });
    await assert.rejects(other, /exited \(code 1\) during the call/);
    assert.equal(conn.state, 'error');
    assert.equal(crashes.length, 1);
    await assert.rejects(conn.callTool('echo', { text: 'x' }), /not ready \(error\)/);
    await conn.close();
    assert.equal(isAlive(pid), false);
  });

  test('progress reaches the caller and keeps a long call alive past its timeout', T, async () => {
    const conn = await connect();
    try {
      const seen: string[] = [];
      // 8 steps of 50 ms: 400 ms in all, but each progress resets the 300 ms timeout.
      const result = await conn.callTool(
        'slow',
        { ms: 400, steps: 8 },
        {
          timeoutMs: 300,
          onProgress: (p, total, message) => seen.push(`${p}/${total} ${message}`),
        },
      );
      assert.equal(textOf(result), 'slept 400 ms');
      assert.equal(seen.length, 8);
      assert.equal(seen[7], '8/8 step 8');
    } finally {
      await conn.close();
    }
  });

  test('a server flooding stderr costs bounded memory and stays responsive', T, async () => {
    const conn = await connect(['--flood-stderr'], { stderrBytes: 8 * 1024 });
    try {
      let calls = 0;
      while (conn.stderrBytes().total < 8 * 1024 * 1024) {
        assert.equal(textOf(await conn.callTool('echo', { text: `n${calls}` })), `n${calls}`);
        calls++;
      }
      const { held, total } = conn.stderrBytes();
      assert.ok(held <= 8 * 1024, `held ${held} bytes of ${total}`);
      assert.match(conn.stderr(200), /stderr flood/);
    } finally {
      await conn.close();
    }
  });

  test('a 20 MB tool result arrives whole', T, async () => {
    const conn = await connect();
    try {
      const result = await conn.callTool('big', { bytes: 20_000_000 });
      assert.equal(textOf(result).length, 20_000_000);
      assert.equal(textOf(await conn.callTool('echo', { text: 'after' })), 'after');
    } finally {
      await conn.close();
    }
  });

  test('a result over the message cap fails at once with a clear error, and the session goes on', T, async () => {
    const conn = await connect([], { maxMessageBytes: 1024 * 1024, callTimeoutMs: 120_000 });
    try {
      await assert.rejects(conn.callTool('big', { bytes: 3_000_000 }), (err: unknown) => {
        assert.ok(err instanceof McpRequestError);
        assert.match(err.message, /message was 2\.9 MiB, over the host's limit of 1\.0 MiB/);
        return true;
      });
      assert.equal(textOf(await conn.callTool('echo', { text: 'still here' })), 'still here');
    } finally {
      await conn.close();
    }
  });
});
