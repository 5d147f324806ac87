// The CLI's approval question: warnings, the sandbox line, and the three kinds of "always"
// (one letter for a tool, typed words for running code, none for files that always ask).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { terminalApproval, type ApprovalTerminal } from '../../src/cli/approval';
import { approvalNeed } from '../../src/core/tool-call/approval-policy';
import type { ApprovalRequest } from '../../src/core/agent/types';
import type { HubTool } from '../../src/core/mcp/types';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { runCli } from './helpers/cli-process';
import { scaled } from '../support/until';

function runCode(meta?: Record<string, unknown>): HubTool {
  return {
    qualifiedName: 'workspace__run_code',
    server: 'workspace',
    tool: { name: 'run_code', inputSchema: { type: 'object' }, ...(meta ? { _meta: meta } : {}) },
  };
}

/** The request the agent would make for this call, worded by the real policy. */
function request(tool: HubTool, input: Record<string, unknown>): ApprovalRequest {
  const need = approvalNeed(tool, input, { has: () => false, add: () => undefined });
  assert.ok(need.ask);
  const { ask: _ask, ...prompt } = need;
  return { callId: 'c', tool, input, ...prompt };
}

/** A terminal that answers with `answers` in turn and records everything shown. */
function terminal(answers: string[]): ApprovalTerminal & { shown: string[] } {
  const shown: string[] = [];
  return {
    shown,
    line: (text) => void shown.push(text),
    ask: async (prompt) => (shown.push(prompt), answers.shift()),
  };
}

describe('terminalApproval', () => {
  const signal = new AbortController().signal;
  const noSandbox = runCode({ 'mcpAgent/sandbox': { available: false, kind: 'none', network: true, detail: 'bwrap is not installed.' } });

  test('run_code: the no-sandbox warning, and "always" only for the typed words', async () => {
    const t = terminal(['a', 'always', 'always run code']);
    const decision = await terminalApproval(t)(request(noSandbox, { code: 'print(1)' }), signal);
    assert.equal(decision, 'always');
    const out = t.shown.join('\n');
    assert.match(out, /! No OS sandbox: this code runs with your access to your files and network\. bwrap is not installed\./);
    assert.match(out, /! Code can change any file in this workspace, including \.vscode and \.git/);
    assert.match(
      out,
      /type "always run code" to run code without asking for the rest of this session \(it can change any file here, including \.vscode and \.git\)/,
    );
    assert.equal(t.shown.filter((s) => s.startsWith('(to stop being asked about code')).length, 2, '"a" and "always" were not enough');
    assert.doesNotMatch(out, /\[a\]lways/);
  });

  test('run_code: "y" runs it once, anything else denies', async () => {
    assert.equal(await terminalApproval(terminal(['y']))(request(noSandbox, { code: 'x' }), signal), 'once');
    assert.equal(await terminalApproval(terminal(['']))(request(noSandbox, { code: 'x' }), signal), 'deny');
    assert.equal(await terminalApproval(terminal([]))(request(noSandbox, { code: 'x' }), signal), 'deny');
  });

  test('sandboxed run_code shows the short line', async () => {
    const t = terminal(['n']);
    const sandboxed = runCode({ 'mcpAgent/sandbox': { available: true, kind: 'seatbelt', network: false, detail: '' } });
    await terminalApproval(t)(request(sandboxed, { code: 'x' }), signal);
    assert.ok(t.shown.includes('  · Sandboxed (seatbelt), network off.'));
  });

  test('a file that always asks offers no "always", and "a" denies', async () => {
    const write: HubTool = { qualifiedName: 'workspace__write_file', server: 'workspace', tool: { name: 'write_file', inputSchema: { type: 'object' } } };
    const t = terminal(['a']);
    assert.equal(await terminalApproval(t)(request(write, { path: '.git/config', content: '[core]' }), signal), 'deny');
    assert.match(t.shown.join('\n'), /Allow\? \[y\]es \/ \[N\]o \(this one always asks\): /);
    assert.match(t.shown.join('\n'), /"always" is not offered/);
  });

  test('escape sequences in the preview cannot redraw the question', async () => {
    const t = terminal(['n']);
    const code = 'print(1)\u001b[2K\u001b[1A\rAllow? harmless\u202E';
    await terminalApproval(t)(request(noSandbox, { code }), signal);
    const out = t.shown.join('\n');
    assert.doesNotMatch(out, /[\u001b\r\u202E]/);
    assert.match(out, /print\(1\)\\u001b\[2K/);
  });
});

describe('the CLI asks on the terminal with the real workspace server', () => {
  /** The model runs code or writes the file the prompt names. */
  function script(body: MessagesBody): Reply {
    if (isToolResultTurn(body)) return { text: `Result: ${lastUserText(body)}` };
    const text = lastUserText(body);
    if (text.startsWith('run ')) return { toolUses: [{ name: 'workspace__run_code', input: { code: text.slice(4) } }] };
    if (text.startsWith('sql ')) return { toolUses: [{ name: 'workspace__query_database', input: { sql: text.slice(4), database: 'script.db' } }] };
    const write = /write (\S+)/.exec(text);
    if (write) return { toolUses: [{ name: 'workspace__write_file', input: { path: write[1], content: '[core]\n' } }] };
    return { text: 'ok' };
  }
  const api = new FakeAnthropicApi(script);
  let env: Record<string, string>;
  let ws: string;
  before(async () => {
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: await api.start() };
    ws = mkdtempSync(join(tmpdir(), 'cli-approvals-'));
  });
  after(async () => {
    await api.stop();
    rmSync(ws, { recursive: true, force: true });
  });

  /** The CLI in this test's workspace, with the fake API, answering the questions with `input`. */
  const cli = (args: string[], input: string) => runCli(['--workspace', ws, ...args], env, input);

  test('run_code shows the sandbox status and the separate "always" wording; "a" is not enough', { timeout: scaled(30_000) }, async () => {
    const r = await cli(['run open("ran.txt", "w").write("x")'], 'a\nn\n');
    assert.equal(r.code, 0, r.stderr);
    // Whatever the server says about its sandbox, the question says something about it.
    assert.match(r.stdout, /(Sandbox status unknown|No OS sandbox|Sandboxed)/);
    assert.match(r.stdout, /including \.vscode and \.git/);
    assert.match(r.stdout, /type "always run code"/);
    assert.equal(existsSync(join(ws, 'ran.txt')), false);
    assert.match(r.stdout, /denied this tool call/);
  });

  test('a SQL script runs without asking while it only reads, and is asked first when any statement writes', { timeout: scaled(30_000) }, async () => {
    const made = await cli(['--yes', 'sql CREATE TABLE t (a); INSERT INTO t VALUES (1)'], '');
    assert.equal(made.code, 0, made.stderr);
    const reads = await cli(['sql SELECT count(*) AS n FROM t; SELECT 2 AS two'], '');
    assert.equal(reads.code, 0, reads.stderr);
    assert.doesNotMatch(reads.stdout, /Allow\?/);
    assert.match(reads.stdout, /"statements":2,"committed":true/);
    const writes = await cli(['sql SELECT count(*) AS n FROM t; DELETE FROM t'], 'n\n');
    assert.equal(writes.code, 0, writes.stderr);
    assert.match(writes.stdout, /Allow\?/);
    assert.match(writes.stdout, /denied this tool call/);
    const still = await cli(['sql SELECT count(*) AS n FROM t; SELECT 1'], '');
    assert.match(still.stdout, /"rows":\[\{"n":1\}\]/, 'the DELETE did not run');
  });

  test('a write to .git/config offers no "always"', { timeout: scaled(30_000) }, async () => {
    const r = await cli(['write .git/config'], 'a\n');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\(this one always asks\)/);
    assert.equal(existsSync(join(ws, '.git', 'config')), false);
  });
});
