// The CLI signing in to a remote MCP server: $BROWSER (a small script standing in for a browser, which
// follows the authorization server's redirect to the CLI's loopback port) is run with the URL as its one
// argument and no shell; tokens land in $MCP_AGENT_HOME/oauth.json (0600) and serve the next run.
// Real CLI processes, the protected fake server (test/fakes/oauth-server.ts), the fake Messages API.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { FileOAuthStore } from '../../src/cli/oauth';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { CLI, haveScript, runCli, runCliOnTerminal } from './helpers/cli-process';
import type { HttpServerProcess } from './helpers/http-server-process';
import { browse, startOAuthFake } from './helpers/oauth-harness';
import { fake } from './mcp-support';
import { scaled } from '../support/until';

const T = { timeout: scaled(60_000) };

/** "call <tool>" makes the model call it; the result comes back as "Result: <text>". */
function caller(body: MessagesBody): Reply {
  if (isToolResultTurn(body)) return { text: `Result: ${lastUserText(body)}` };
  const match = /call (\S+)/.exec(lastUserText(body));
  return match?.[1] ? { toolUses: [{ name: match[1], input: {} }] } : { text: `You said: ${lastUserText(body)}` };
}

describe('the CLI signing in to an MCP server (OAuth)', () => {
  const api = new FakeAnthropicApi(caller);
  let server: HttpServerProcess;
  let env: Record<string, string>;
  const dirs: string[] = [];
  const dir = (prefix: string): string => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
  const lastToolResult = (): string => {
    const turn = [...api.requests].reverse().find((r) => isToolResultTurn(r.body));
    assert.ok(turn, 'a tool result reached the model');
    return lastUserText(turn.body);
  };

  before(async () => {
    server = await startOAuthFake();
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: await api.start() };
  });
  after(async () => {
    await Promise.all([api.stop(), server.stop()]);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const setUp = (): { ws: string; home: string; config: string; log: string; browser: string } => {
    const ws = dir('cli-oauth-ws-');
    const home = dir('cli-oauth-home-');
    const config = join(dir('cli-oauth-cfg-'), 'servers.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { guarded: { type: 'http', url: server.url } } }));
    const log = join(home, 'browser.log');
    const browser = join(home, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nexec '${process.execPath}' '${fake('oauth-browser')}' "$@"\n`);
    chmodSync(browser, 0o755);
    return { ws, home, config, log, browser };
  };

  test(
    '$BROWSER gets the authorization URL as one argument, its redirect reaches the loopback port, the tool runs; the next run reuses the tokens',
    T,
    async () => {
      const { ws, home, config, log, browser } = setUp();
      const runEnv = { ...env, MCP_AGENT_HOME: home, BROWSER: browser, OAUTH_BROWSER_LOG: log };
      const first = await runCli(['--workspace', ws, '--yes', '--mcp-config', config, 'call guarded__whoami'], runEnv);
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stderr, new RegExp(`server guarded asks you to sign in at 127\\.0\\.0\\.1:${server.port}\\.`));
      const who = JSON.parse(lastToolResult()) as { scopes: string[]; resource: string };
      assert.deepEqual(who.scopes, ['mcp']);
      assert.equal(who.resource, server.url);

      const entries = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { args?: string[]; ended?: string; status?: number; text?: string });
      const [opened, landed] = entries;
      assert.equal(opened?.args?.length, 1, 'the URL is one argument: no shell split it at its & characters');
      const url = new URL(opened?.args?.[0] ?? '');
      assert.equal(url.origin, `http://127.0.0.1:${server.port}`);
      assert.ok(url.searchParams.get('state') && url.searchParams.get('code_challenge'));
      assert.match(landed?.ended ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
      assert.equal(landed?.status, 200);
      assert.match(landed?.text ?? '', /signed in/i);

      const file = join(home, 'oauth.json');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      const stored = JSON.parse(readFileSync(file, 'utf8')) as { servers: Record<string, { tokens?: { access_token?: string; refresh_token?: string } }> };
      assert.deepEqual(Object.keys(stored.servers), [server.url]);
      assert.ok(stored.servers[server.url]?.tokens?.refresh_token);

      const second = await runCli(['--workspace', ws, '--yes', '--mcp-config', config, 'call guarded__stats'], runEnv);
      assert.equal(second.code, 0, second.stderr);
      assert.doesNotMatch(second.stderr, /asks you to sign in/);
      assert.equal(readFileSync(log, 'utf8').trim().split('\n').length, 2, '$BROWSER was not run again');
      assert.equal(JSON.parse(lastToolResult()).exchanges, 1);
    },
  );

  test('without $BROWSER the address is printed; opening it by hand finishes the sign-in', T, async () => {
    const { ws, home, config } = setUp();
    const child = spawn(process.execPath, [CLI, '--workspace', ws, '--yes', '--mcp-config', config, 'call guarded__whoami'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, MCP_AGENT_HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const printed = new Promise<string>((resolve) => {
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        const m = /open this address in your browser to sign in:\n {2}(\S+)/.exec(stderr);
        if (m?.[1]) resolve(m[1]);
      });
    });
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const address = await Promise.race([printed, exited.then((code) => assert.fail(`the CLI ended (code ${code}) without printing an address: ${stderr}`))]);
    const visit = await browse(address);
    assert.equal(visit.status, 200);
    assert.equal(await exited, 0, stderr);
    assert.deepEqual((JSON.parse(lastToolResult()) as { scopes: string[] }).scopes, ['mcp']);
    assert.ok(existsSync(join(home, 'oauth.json')));
  });

  test(
    'the REPL on a terminal asks before the browser opens: "n" leaves the server unsigned, "y" runs $BROWSER',
    { ...T, skip: !haveScript() && 'script(1) is not installed' },
    async () => {
      const { ws, home, config, log, browser } = setUp();
      const runEnv = { ...env, MCP_AGENT_HOME: home, BROWSER: browser, OAUTH_BROWSER_LOG: log };
      const question = `Sign in at 127.0.0.1:${server.port} in your browser? [Y/n] `;
      const no = await runCliOnTerminal(['--workspace', ws, '--mcp-config', config], runEnv, [
        [question, 'n'],
        ['You: ', 'exit'],
      ]);
      assert.equal(no.code, 0, no.output);
      assert.match(
        no.output.replace(/\r/g, ''),
        new RegExp(`\\[server guarded failed: server guarded: it asks you to sign in at 127\\.0\\.0\\.1:${server.port}, which was declined`),
      );
      assert.equal(existsSync(log), false, '$BROWSER was not run');

      const yes = await runCliOnTerminal(['--workspace', ws, '--mcp-config', config], runEnv, [
        [question, 'y'],
        ['You: ', 'exit'],
      ]);
      assert.equal(yes.code, 0, yes.output);
      assert.doesNotMatch(yes.output, /server guarded failed/);
      assert.match(readFileSync(log, 'utf8'), /"status":200/);
    },
  );

  test('the token file: writes of two servers at once both land, a damaged file costs a sign-in and is rewritten 0600', async () => {
    const file = join(dir('cli-oauth-store-'), 'oauth.json');
    writeFileSync(file, '{ not json', { mode: 0o644 });
    const store = new FileOAuthStore(file);
    assert.equal(await store.read('https://a.example/mcp'), undefined);
    await Promise.all([
      store.write('https://a.example/mcp', { tokens: { access_token: 'a', token_type: 'bearer' } }),
      store.write('https://b.example/mcp', { tokens: { access_token: 'b', token_type: 'bearer' } }),
    ]);
    assert.equal((await store.read('https://a.example/mcp'))?.tokens?.access_token, 'a');
    assert.equal((await new FileOAuthStore(file).read('https://b.example/mcp'))?.tokens?.access_token, 'b');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    await store.forget('https://a.example/mcp');
    assert.equal(await store.read('https://a.example/mcp'), undefined);
    assert.ok(await store.read('https://b.example/mcp'));
  });
});
