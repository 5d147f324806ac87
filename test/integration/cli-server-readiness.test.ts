// The CLI's servers around a run: a server that never answers initialize does not hold the first
// turn, a run without a server the person named with --mcp-config fails saying why, a renamed duplicate
// is said, and SIGTERM stops every server before the CLI is gone.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAnthropicApi } from '../fakes/anthropic-api';
import { CHATS_HOME, CLI, runCli } from './helpers/cli-process';
import { fake } from './mcp-support';
import { scaled, until } from '../support/until';
import { OWN_SERVERS_GRACE_MS } from '../../src/core/mcp/hub/readiness';

/** The live processes whose command line mentions `marker`, with their state letter (Z: a zombie, as good as gone). */
function processesWith(marker: string): Array<{ pid: number; state: string }> {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => {
      try {
        if (!readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(marker)) return [];
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        return [{ pid: Number(d), state: stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) }];
      } catch {
        return [];
      }
    })
    .filter((p) => p.state !== 'Z');
}

describe('the CLI and servers that are slow, missing or left behind', () => {
  const api = new FakeAnthropicApi(() => ({ text: 'answered' }));
  let env: Record<string, string>;
  const dirs: string[] = [];
  const dir = (prefix: string): string => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
  /** A --mcp-config file holding `servers`, each a fake of test/fakes run by node with `args`. */
  const config = (servers: Record<string, { fake: string; args?: string[]; startTimeout?: number }>): string => {
    const file = join(dir('cli-ready-cfg-'), 'servers.json');
    const mcpServers = Object.fromEntries(
      Object.entries(servers).map(([name, s]) => [
        name,
        { command: process.execPath, args: [fake(s.fake), ...(s.args ?? [])], ...(s.startTimeout ? { startTimeout: s.startTimeout } : {}) },
      ]),
    );
    writeFileSync(file, JSON.stringify({ mcpServers }));
    return file;
  };

  before(async () => {
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: await api.start() };
  });
  after(async () => {
    await api.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  test(
    'a server that never answers initialize holds a one-shot run through its first try only; the run fails naming it',
    { timeout: scaled(90_000) },
    async () => {
      const ws = dir('cli-ready-ws-');
      const before_ = api.requests.length;
      const r = await runCli(['--workspace', ws, '--mcp-config', config({ stuck: { fake: 'mcp-no-init' } }), 'hello'], env);
      // Said before the turn, on stderr (stdout keeps the conversation): the turn began while the server was still
      // starting (its next try under way or due), not after all its tries, which is said after it.
      assert.equal(r.stdout.trim(), 'answered');
      assert.match(r.stderr, /\[server stuck is still starting( \([^\]]*\))?; its tools join once it is up\][\s\S]*never came up/);
      assert.equal(api.requests.length, before_ + 1, 'the turn ran');
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /mcp-agent: server stuck \(--mcp-config\) never came up: it was still starting/);
    },
  );

  test(
    "a one-shot run waits for a slow server through its first try, past the REPL's grace: its tools are in the first request",
    { timeout: scaled(90_000) },
    async () => {
      const ws = dir('cli-ready-ws-');
      const gate = join(ws, '..', `${ws.split('/').pop()}-open`);
      const before_ = api.requests.length;
      const run = runCli(
        ['--workspace', ws, '--mcp-config', config({ gated: { fake: 'mcp-echo', args: [`--start-when=${gate}`], startTimeout: 120 } }), 'hello'],
        env,
      );
      await until(() => (existsSync(`${gate}.waiting`) ? true : undefined), { what: 'the gated server to be spawned', timeoutMs: 60_000 });
      // Past the 5 s a REPL's first turn gives a server, counted from before it was spawned (its first try has 120 s).
      await new Promise((resolve) => setTimeout(resolve, OWN_SERVERS_GRACE_MS + 1_000));
      assert.equal(api.requests.length, before_, 'the turn did not wait for the server');
      writeFileSync(gate, 'open\n');
      const r = await run;
      assert.equal(r.code, 0, r.stderr);
      const sent = (api.requests.at(-1)?.body.tools ?? []).map((t) => t.name);
      assert.ok(sent.includes('gated__echo'), `${sent.join(', ')}\n${r.stderr}`);
      assert.doesNotMatch(r.stderr, /still starting/);
    },
  );

  test('a run whose named server failed exits non-zero with the reason; a working one exits 0', { timeout: scaled(60_000) }, async () => {
    const ws = dir('cli-ready-ws-');
    const failed = await runCli(['--workspace', ws, '--mcp-config', config({ broken: { fake: 'mcp-echo', args: ['--exit-at-start=3'] } }), 'hello'], env);
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stderr, /mcp-agent: server broken \(--mcp-config\) never came up: .*boom/);
    const fine = await runCli(['--workspace', ws, '--mcp-config', config({ fine: { fake: 'mcp-echo' } }), 'hello'], env);
    assert.equal(fine.code, 0, fine.stderr);
    assert.doesNotMatch(fine.stderr, /never came up/);
  });

  test('tools whose inputSchema is no valid JSON Schema are left out, saying so; the turn runs with the rest', { timeout: scaled(90_000) }, async () => {
    const ws = dir('cli-ready-ws-');
    const before_ = api.requests.length;
    const r = await runCli(['--workspace', ws, '--mcp-config', config({ sloppy: { fake: 'mcp-raw', args: ['--sloppy-schemas'] } }), 'hello'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(api.requests.length, before_ + 1, 'the turn ran');
    const sent = (api.requests.at(-1)?.body.tools ?? []).map((t) => t.name);
    assert.ok(sent.includes('sloppy__echo'), sent.join(', '));
    assert.deepEqual(
      sent.filter((n) => /^sloppy__(typo|dangling|badregex)$/.test(n)),
      [],
    );
    assert.match(r.stderr, /\[server sloppy: tool typo left out: its inputSchema is not valid JSON Schema \(type must be JSONType/);
    assert.match(r.stderr, /\[server sloppy: tool dangling left out: its inputSchema is not valid JSON Schema \(can't resolve reference #\/\$defs\/missing/);
    assert.match(r.stderr, /\[server sloppy: tool badregex left out: its inputSchema is not valid JSON Schema \(Invalid regular expression/);
  });

  test(
    'a server whose tools/list answer is no list fails, saying so; the run exits non-zero, alone or beside a working one',
    { timeout: scaled(90_000) },
    async () => {
      const ws = dir('cli-ready-ws-');
      const broken = { fake: 'mcp-raw', args: ['--invalid-tools-list'] };
      const runs: Array<Record<string, { fake: string; args?: string[] }>> = [{ broken }, { broken, fine: { fake: 'mcp-echo' } }];
      for (const servers of runs) {
        const r = await runCli(['--workspace', ws, '--mcp-config', config(servers), 'hello'], env);
        assert.equal(r.code, 1, r.stderr);
        assert.match(r.stderr, /\[server broken failed: server broken answered initialize, but its tools could not be listed: /);
        assert.doesNotMatch(r.stdout + r.stderr, /server broken is still starting/);
        assert.match(r.stderr, /mcp-agent: server broken \(--mcp-config\) never came up: server broken answered initialize, but its tools could not be listed/);
      }
    },
  );

  test('a duplicate server name that was renamed is said', { timeout: scaled(60_000) }, async () => {
    const ws = dir('cli-ready-ws-');
    const second = config({ echo: { fake: 'mcp-echo' } });
    const r = await runCli(
      [
        '--workspace',
        ws,
        '--mcp-config',
        config({ echo: { fake: 'mcp-echo' } }),
        '--mcp-config',
        second,
        '--mcp-config',
        config({ 'my server': { fake: 'mcp-echo' } }),
        'hello',
      ],
      env,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.ok(
      r.stderr.includes(
        `mcp-agent: server "echo" in ${second} runs as "echo-2" ("echo" is taken by a bundled server or one defined before it); its tools are echo-2__<tool>`,
      ),
      r.stderr,
    );
    assert.match(r.stderr, /server "my server" in .* runs as "my_server" \(tool names allow only letters, digits, "_" and "-"\)/);
  });

  test('SIGTERM stops every server before the CLI exits, as Ctrl+C does', { timeout: scaled(60_000) }, async () => {
    const ws = dir('cli-ready-ws-');
    const marker = `sigterm-${Date.now()}`;
    // mcp-no-init ignores stdin EOF and SIGTERM: only being killed by its host ends it.
    const child = spawn(process.execPath, [CLI, '--workspace', ws, '--mcp-config', config({ stuck: { fake: 'mcp-no-init', args: [marker] } })], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, MCP_AGENT_HOME: CHATS_HOME, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    const prompted = new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes('You: ')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? -1 : null))));
    await prompted;
    assert.equal(processesWith(marker).length, 1, 'the server runs while the REPL waits');
    child.kill('SIGTERM');
    assert.equal(await exited, 143);
    assert.deepEqual(processesWith(marker), [], 'no server is left running');
  });
});
