import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAnthropicApi } from '../fakes/anthropic-api';
import { repoRoot } from '../support/repo-root';

/**
 * A client that writes its requests and closes its input still gets every answer: the bundled
 * servers exit on stdin EOF only once what they were asked is done. And a line that is not
 * JSON-RPC is answered with JSON-RPC's error, not with silence.
 */

interface Run {
  code: number | null;
  lines: Array<Record<string, unknown>>;
  stderr: string;
}

/** Runs a shell line in the repository, as a person types it, and reads what it printed. */
function sh(line: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', line], { cwd: repoRoot(), env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = out
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      resolve({ code, lines, stderr });
    });
  });
}

function answerText(message: Record<string, unknown> | undefined): string {
  const result = message?.result as { content?: Array<{ text?: string }> } | undefined;
  return (result?.content ?? []).map((c) => c.text ?? '').join('');
}

describe('stdin EOF and unreadable input', () => {
  let api: FakeAnthropicApi;
  let workspace: string;
  let home: string;

  before(async () => {
    api = new FakeAnthropicApi([]);
    await api.start();
    workspace = mkdtempSync(join(tmpdir(), 'eof-ws-'));
    home = mkdtempSync(join(tmpdir(), 'eof-home-'));
  });

  after(async () => {
    await api?.stop();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  test("the claude-agent seed's own smoke test prints the query's answer", async () => {
    api.setScript([{ text: '4' }]);
    // The seed's line as it writes it, with this project's entry point and its workspace argument.
    const line =
      `echo '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"query","arguments":{"prompt":"What is 2+2?"}}}' | \\\n` +
      `  ANTHROPIC_API_KEY="your-key" node dist/servers/orchestrator.js '${workspace}'`;
    const run = await sh(line, { ANTHROPIC_BASE_URL: api.url, MCP_AGENT_HOME: home, CLAUDE_LOG_TO_STDERR: 'true' });
    assert.equal(run.code, 0, run.stderr);
    const answer = run.lines.find((m) => m.id === 1);
    assert.ok(answer, `no answer to the call on stdout: ${JSON.stringify(run.lines)}; stderr: ${run.stderr}`);
    assert.match(answerText(answer), /^4\n/);
    assert.match(answerText(answer), /Session ID: [0-9a-f]{32}/);
    assert.equal(api.requests.at(-1)?.body.messages.at(-1)?.content, 'What is 2+2?');
  });

  test('a question to a client whose input closed is refused at once, and the call still answers', async () => {
    api.setScript([{ toolUses: [{ name: 'workspace__write_file', input: { path: 'eof.txt', content: 'x' } }] }, { text: 'could not write' }]);
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: { elicitation: { form: {} } }, clientInfo: { name: 'sh', version: '0' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'start_agent', arguments: { session_name: 'eof', prompt: 'write eof.txt' } } },
    ];
    const line = `printf '%s\\n' ${messages.map((m) => `'${JSON.stringify(m)}'`).join(' ')} | node dist/servers/orchestrator.js '${workspace}'`;
    const run = await sh(line, { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: api.url, MCP_AGENT_HOME: home });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.lines.filter((m) => m.method === 'elicitation/create').length, 0, 'nobody could answer the question, so none was sent');
    const text = answerText(run.lines.find((m) => m.id === 2));
    assert.match(text, /could not write/);
    assert.match(text, /asking failed .*closed its input/);
    assert.equal(existsSync(join(workspace, 'eof.txt')), false);
  });

  for (const name of ['workspace', 'web', 'research', 'orchestrator']) {
    test(`${name}: a line that is not JSON gets a -32700 parse error; JSON that is no message gets -32600`, async () => {
      const run = await sh(`printf 'not json\\n{"hello":1}\\n' | node dist/servers/${name}.js '${workspace}'`, { MCP_AGENT_HOME: home });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(
        run.lines.map((m) => [m.id, (m.error as { code?: number } | undefined)?.code]),
        [
          [null, -32700],
          [null, -32600],
        ],
      );
    });
  }
});
