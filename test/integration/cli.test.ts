import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { repoRoot } from '../support/repo-root';

const CLI = join(repoRoot(), 'dist', 'cli.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string | undefined>, input?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

/** The model writes the file named in the prompt, then says what happened with the result. */
function writer(body: MessagesBody): Reply {
  if (isToolResultTurn(body)) return { text: `Result: ${lastUserText(body)}` };
  const match = /write (\S+) saying (.+)/.exec(lastUserText(body));
  if (!match) return { text: `You said: ${lastUserText(body)}` };
  return { toolUses: [{ name: 'workspace__write_file', input: { path: match[1], content: match[2] } }] };
}

describe('the CLI (dist/cli.js) with the real workspace server and the fake API', () => {
  const api = new FakeAnthropicApi(writer);
  let env: Record<string, string>;
  let ws: string;
  before(async () => {
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: await api.start() };
    ws = mkdtempSync(join(tmpdir(), 'cli-ws-'));
  });
  after(async () => {
    await api.stop();
    rmSync(ws, { recursive: true, force: true });
  });

  test('one-shot with --yes writes the file and exits 0', async () => {
    const r = await cli(['--workspace', ws, '--yes', 'write hello.txt saying hi there'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(join(ws, 'hello.txt'), 'utf8'), 'hi there');
    assert.match(r.stdout, /\[tool\] workspace__write_file/);
    assert.match(r.stdout, /\[result\] workspace__write_file/);
    assert.match(r.stdout, /Result: /);
  });

  test('without --yes the approval is asked on the terminal; "n" denies', async () => {
    const r = await cli(['--workspace', ws, 'write denied.txt saying no'], env, 'n\n');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Write denied\.txt in the workspace/);
    assert.match(r.stdout, /Allow\?/);
    assert.equal(existsSync(join(ws, 'denied.txt')), false);
    assert.match(r.stdout, /denied this tool call/);
  });

  test('"y" approves', async () => {
    const r = await cli(['--workspace', ws, 'write approved.txt saying yes'], env, 'y\n');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(join(ws, 'approved.txt'), 'utf8'), 'yes');
  });

  test('the REPL answers each line until exit', async () => {
    const r = await cli(['--workspace', ws], env, 'first question\nsecond question\nexit\n');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /You: /);
    assert.match(r.stdout, /You said: first question/);
    assert.match(r.stdout, /You said: second question/);
  });

  test('no API key: a clear message and a non-zero exit', async () => {
    const r = await cli(['--workspace', ws, 'hi'], { ANTHROPIC_BASE_URL: env.ANTHROPIC_BASE_URL });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /ANTHROPIC_API_KEY/);
  });

  test('a workspace that is not a directory: usage and a non-zero exit', async () => {
    const r = await cli(['--workspace', join(ws, 'nope'), 'hi'], env);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /not a directory/);
    assert.match(r.stderr, /usage:/);
  });

  test('an unknown option: usage and a non-zero exit', async () => {
    const r = await cli(['--frobnicate'], env);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown option --frobnicate/);
  });

  test('a rejected key ends with a clear message and exit 1', async () => {
    api.setScript([{ error: 401, message: 'invalid x-api-key' }]);
    try {
      const r = await cli(['--workspace', ws, 'hi'], env);
      assert.equal(r.code, 1);
      assert.match(r.stdout, /rejected the API key \(401\)/);
    } finally {
      api.setScript(writer);
    }
  });
});
