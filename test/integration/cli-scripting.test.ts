// The CLI as a tool in scripts, as Claude Code's is: --version, --help with a line per option, exit codes
// that mean something, errors on stderr only, and a machine-readable output (one JSON object, or a JSON
// line per event). dist/cli.js with the real bundled servers against the fake Messages API.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { CHATS_HOME, CLI, cli } from './helpers/cli-process';
import { repoRoot } from '../support/repo-root';
import { scaled } from '../support/until';

const T = { timeout: scaled(180_000) };

/** The model: "write <file> saying <text>" writes it and then reads it back; "loop" calls a tool forever; "hang" never answers. */
function model(body: MessagesBody): Reply {
  const asked = body.messages.find((m) => m.role === 'user');
  const first = asked ? (typeof asked.content === 'string' ? asked.content : String(asked.content.find((b) => b.type === 'text')?.text ?? '')) : '';
  if (/hang/.test(first)) return { hang: true };
  if (/loop/.test(first)) return { text: 'Looking.', toolUses: [{ name: 'workspace__list_directory', input: { path: '.' } }] };
  const write = /write (\S+) saying (.+)/.exec(first);
  if (write && !isToolResultTurn(body))
    return { text: 'Writing it.', toolUses: [{ name: 'workspace__write_file', input: { path: write[1], content: write[2] } }] };
  if (isToolResultTurn(body)) return { text: `Done: ${lastUserText(body).slice(0, 40)}` };
  return { text: `You said: ${lastUserText(body)}` };
}

describe('the CLI in scripts', () => {
  const api = new FakeAnthropicApi(model);
  let env: Record<string, string>;
  let ws: string;
  before(async () => {
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: await api.start() };
    ws = mkdtempSync(join(tmpdir(), 'cli-scripting-'));
  });
  after(async () => {
    await api.stop();
    rmSync(ws, { recursive: true, force: true });
  });

  test('--version prints the version on stdout and exits 0', T, async () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const r = await cli([flag], {});
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.split(' ')[0], version);
      assert.equal(r.stderr, '');
    }
  });

  test('--help gives every option one line of its own', T, async () => {
    const r = await cli(['--help'], {});
    assert.equal(r.code, 0);
    const options = [
      'workspace',
      'yes',
      'model',
      'max-iterations',
      'max-tokens',
      'output-format',
      'create-sample-db',
      'mcp-config',
      'trust-workspace-servers',
      'continue',
      'resume',
      'allow-host',
      'plain',
      'version',
      'help',
    ];
    for (const name of options) {
      const lines = r.stdout.split('\n').filter((l) => new RegExp(`^  (-[a-z], |    )--${name}\\b`).test(l));
      assert.equal(lines.length, 1, `one line for --${name}`);
      assert.match(lines[0]!, new RegExp(`--${name}( <[a-z]+>)? {2,}\\S`), `--${name} says what it does`);
    }
  });

  test('a rejected key: the error on stderr, nothing of it on stdout, exit 1', T, async () => {
    api.setScript([{ error: 401, message: 'invalid x-api-key' }]);
    try {
      const r = await cli(['--workspace', ws, 'hi'], env);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /rejected the API key \(401\)/);
      assert.doesNotMatch(r.stdout, /401|API key|Error/);
    } finally {
      api.setScript(model);
    }
  });

  test('a server that failed to start is said on stderr, not stdout', T, async () => {
    const config = join(ws, 'broken-server.json');
    await import('node:fs/promises').then((fs) =>
      fs.writeFile(config, JSON.stringify({ mcpServers: { broken: { command: process.execPath, args: ['-e', 'process.exit(3)'] } } })),
    );
    const r = await cli(['--workspace', ws, '--mcp-config', config, 'hi'], env);
    assert.match(r.stderr, /server broken/);
    assert.doesNotMatch(r.stdout, /broken/);
  });

  test('a turn stopped by --max-iterations exits non-zero (1), saying why on stderr', T, async () => {
    const r = await cli(['--workspace', ws, '--yes', '--max-iterations', '2', 'loop please'], env);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /--max-iterations/);
    assert.doesNotMatch(r.stdout, /--max-iterations/);
  });

  test('Ctrl+C (SIGINT) during a one-shot turn stops it and exits 130', T, async () => {
    const before_ = api.requests.length;
    const child = spawn(process.execPath, [CLI, '--workspace', ws, 'hang please'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, MCP_AGENT_HOME: CHATS_HOME, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await api.waitForRequests(before_ + 1);
    child.kill('SIGINT');
    assert.equal(await exited, 130, stderr);
    assert.match(stderr, /\[stopped\]/);
  });

  test('--output-format json: one object on stdout with the answer, usage and the calls; the questions on stderr', T, async () => {
    const r = await cli(['--workspace', ws, '--output-format', 'json', 'write out.txt saying hello json'], env, 'y\n');
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 1, r.stdout);
    const result = JSON.parse(lines[0]!) as Record<string, unknown> & {
      usage: { input_tokens: number; output_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number };
      calls: Array<Record<string, unknown>>;
    };
    assert.equal(result.type, 'result');
    assert.equal(result.subtype, 'success');
    assert.equal(result.is_error, false);
    assert.match(String(result.result), /^Done: /);
    assert.equal(result.num_turns, 2);
    assert.match(String(result.session_id), /^[a-z0-9]+$/);
    const u = result.usage;
    assert.ok(u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens > 0 && u.output_tokens > 0, JSON.stringify(u));
    assert.equal(result.calls.length, 1);
    assert.deepEqual(
      { ...result.calls[0], id: undefined, duration_ms: undefined, result: undefined },
      {
        id: undefined,
        name: 'workspace__write_file',
        server: 'workspace',
        tool: 'write_file',
        input: { path: 'out.txt', content: 'hello json' },
        approval: 'once',
        is_error: false,
        result: undefined,
        duration_ms: undefined,
      },
    );
    assert.deepEqual(result.permission_denials, []);
    assert.equal(readFileSync(join(ws, 'out.txt'), 'utf8'), 'hello json');
    assert.match(r.stderr, /Allow\?/, 'the question was asked where the person reads');
    assert.doesNotMatch(r.stdout, /Allow\?|\[tool\]/);
  });

  test('--output-format json: a denied call is in permission_denials; a limit makes is_error true and exit 1', T, async () => {
    const denied = await cli(['--workspace', ws, '--output-format', 'json', 'write no.txt saying never'], env, 'n\n');
    assert.equal(denied.code, 0, denied.stderr);
    const d = JSON.parse(denied.stdout) as { calls: Array<{ approval: string; is_error: boolean }>; permission_denials: Array<{ tool_name: string }> };
    assert.equal(d.calls[0]?.approval, 'deny');
    assert.equal(d.calls[0]?.is_error, true);
    assert.deepEqual(
      d.permission_denials.map((p) => p.tool_name),
      ['workspace__write_file'],
    );
    assert.equal(existsSync(join(ws, 'no.txt')), false);

    const limited = await cli(['--workspace', ws, '--yes', '--output-format', 'json', '--max-iterations', '1', 'loop please'], env);
    assert.equal(limited.code, 1, limited.stderr);
    const l = JSON.parse(limited.stdout) as { subtype: string; is_error: boolean; errors: string[] };
    assert.equal(l.subtype, 'error_max_iterations');
    assert.equal(l.is_error, true);
    assert.match(l.errors[0]!, /--max-iterations/);
  });

  test('--output-format stream-json: a JSON line per event as it happens, the result last', T, async () => {
    const r = await cli(['--workspace', ws, '--yes', '--output-format', 'stream-json', 'write stream.txt saying streamed'], env);
    assert.equal(r.code, 0, r.stderr);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; subtype?: string; message?: { content: Array<Record<string, unknown>> } });
    const shape = events.map((e) =>
      e.type === 'system' || e.type === 'result' ? `${e.type}/${e.subtype}` : `${e.type}/${String(e.message?.content[0]?.type)}`,
    );
    assert.deepEqual(shape, ['system/init', 'assistant/text', 'assistant/tool_use', 'system/approval', 'user/tool_result', 'assistant/text', 'result/success']);
    const init = events[0] as unknown as { tools: string[]; mcp_servers: Array<{ name: string; status: string }> };
    assert.ok(init.tools.includes('workspace__write_file'));
    assert.ok(init.mcp_servers.some((s) => s.name === 'workspace' && s.status === 'ready'));
    assert.equal(events[2]?.message?.content[0]?.name, 'workspace__write_file');
  });

  test("the seed's /read-resource research/papers://folders (server/uri in one argument) prints the resource", T, async () => {
    const r = await cli(['--workspace', ws], env, '/read-resource research/papers://folders\nexit\n');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /# Research topics\n\nNo topics yet\./);
    assert.doesNotMatch(r.stdout, /no ready server lists/);
  });

  test("the seed's /use-prompt with a prompt's name only asks for each of its arguments, one question each", T, async () => {
    const sent = api.requests.length;
    const r = await cli(['--workspace', ws], env, ['/use-prompt generate_search_prompt', 'lasers', '3', 'n', 'exit', ''].join('\n'));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /topic \(The research topic\): /);
    assert.match(r.stdout, /num_papers \(How many papers \(default 5\)\) \[optional, Enter to leave out\]: /);
    assert.match(r.stdout, /Search for 3 academic papers about 'lasers'/, 'the prompt was made with the answers');
    assert.match(r.stdout, /\[prompt not sent\]/);
    assert.equal(api.requests.length, sent, 'nothing reached the model');
  });

  test('--output-format json without a prompt is refused (exit 2, on stderr)', T, async () => {
    const r = await cli(['--workspace', ws, '--output-format', 'json'], env);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /needs a prompt/);
    assert.equal(r.stdout, '');
  });
});
