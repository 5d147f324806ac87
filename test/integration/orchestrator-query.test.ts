import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAnthropicApi, lastUserText } from '../fakes/anthropic-api';
import { logsDir } from '../../src/core/chat/chat-home';
import { startOrchestrator, textOf, type Orchestrator } from './orchestrator-harness';
import { scaled } from '../support/until';

/** The claude-agent seed's `query` tool: in-memory sessions, history cap, expiry, the CLAUDE_* settings. */

interface QueryAnswer {
  answer: string;
  sessionId?: string;
  usage: { input_tokens: number; output_tokens: number };
}

describe('orchestrator query tool', () => {
  let api: FakeAnthropicApi;
  let workspace: string;
  /** MCP_AGENT_HOME: the general log goes beneath it unless CLAUDE_LOG_DIR says otherwise. */
  let home: string;
  const open: Orchestrator[] = [];

  const start = async (env: Record<string, string> = {}): Promise<Orchestrator> => {
    const o = await startOrchestrator(workspace, { env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: api.url, MCP_AGENT_HOME: home, ...env } });
    open.push(o);
    return o;
  };
  const query = async (o: Orchestrator, args: Record<string, unknown>): Promise<QueryAnswer & { text: string }> => {
    const r = await o.call('query', args);
    assert.ok(!r.isError, textOf(r));
    return { ...(r.structuredContent as unknown as QueryAnswer), text: textOf(r) };
  };

  before(async () => {
    // The fake answers with what it was asked, so each answer names its prompt.
    api = new FakeAnthropicApi((body) => ({ text: `answer to: ${lastUserText(body)}` }));
    await api.start();
    workspace = mkdtempSync(join(tmpdir(), 'orch-query-'));
    home = mkdtempSync(join(tmpdir(), 'orch-query-home-'));
  });

  after(async () => {
    await Promise.all(open.map((o) => o.close().catch(() => undefined)));
    await api?.stop();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });
  const logDir = (): string => mkdtempSync(join(home, 'logs-'));

  test('a query without a session id starts a session; with it, the conversation goes on', async () => {
    const o = await start({ CLAUDE_MODEL: 'claude-opus-5-5', CLAUDE_SYSTEM_PROMPT: 'You review code.', CLAUDE_TEMPERATURE: '0.2', CLAUDE_MAX_TOKENS: '1000' });
    const first = await query(o, { prompt: 'What is DI?' });
    assert.match(first.sessionId ?? '', /^[0-9a-f]{32}$/);
    assert.equal(first.answer, 'answer to: What is DI?');
    const billed = api.requests.at(-1)!.billed!;
    assert.equal(first.usage.input_tokens, billed.input_tokens + billed.cache_read_input_tokens + billed.cache_creation_input_tokens);
    assert.ok(first.usage.output_tokens > 0);
    assert.match(first.text, new RegExp(`Session ID: ${first.sessionId}`));
    assert.match(first.text, new RegExp(`Tokens: ${first.usage.input_tokens} input, ${first.usage.output_tokens} output`));
    const body = api.requests.at(-1)!.body;
    assert.equal(body.model, 'claude-opus-5-5');
    assert.equal(body.system, 'You review code.');
    assert.equal((body as { temperature?: number }).temperature, 0.2);
    assert.equal(body.max_tokens, 1000);
    assert.deepEqual(body.tools ?? [], [], 'query gives Claude no tools');

    const second = await query(o, { prompt: 'An example?', sessionId: first.sessionId });
    assert.equal(second.sessionId, first.sessionId);
    assert.deepEqual(
      api.requests.at(-1)!.body.messages.map((m) => m.content),
      ['What is DI?', 'answer to: What is DI?', 'An example?'],
    );
    const other = await query(o, { prompt: 'Fresh?' });
    assert.notEqual(other.sessionId, first.sessionId);
    const unknown = await query(o, { prompt: 'Who?', sessionId: 'f'.repeat(32) });
    assert.notEqual(unknown.sessionId, 'f'.repeat(32), 'an unknown id starts a new session with a new id');
    assert.equal(api.requests.at(-1)!.body.messages.length, 1);
  });

  test('history is capped at CLAUDE_MAX_HISTORY messages', async () => {
    const o = await start({ CLAUDE_MAX_HISTORY: '2' });
    const { sessionId } = await query(o, { prompt: 'one' });
    await query(o, { prompt: 'two', sessionId });
    await query(o, { prompt: 'three', sessionId });
    assert.deepEqual(
      api.requests.at(-1)!.body.messages.map((m) => m.content),
      ['two', 'answer to: two', 'three'],
    );
  });

  test('a session idle past CLAUDE_SESSION_TIMEOUT is forgotten, and the log says so', async () => {
    const dir = logDir();
    const o = await start({ CLAUDE_SESSION_TIMEOUT: '0.2', CLAUDE_LOG_DIR: dir });
    const { sessionId } = await query(o, { prompt: 'remember me' });
    // Idle time is what is under test: nothing to await but the clock.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const later = await query(o, { prompt: 'still there?', sessionId });
    assert.notEqual(later.sessionId, sessionId);
    assert.match(later.text, /unknown or expired/);
    assert.equal(api.requests.at(-1)!.body.messages.length, 1);
    const log = readFileSync(join(dir, 'general.log'), 'utf8');
    assert.match(log, new RegExp(`\\[INFO\\] Cleaned up expired session: ${sessionId}`));
    assert.match(log, /\[INFO\] Cleaned up 1 expired session/);
  });

  test('CLAUDE_ENABLE_CONVERSATIONS=false answers without sessions', async () => {
    const o = await start({ CLAUDE_ENABLE_CONVERSATIONS: 'false' });
    const r = await query(o, { prompt: 'alone' });
    assert.equal(r.sessionId, undefined);
    assert.match(r.text, /Conversations are off/);
  });

  test("without CLAUDE_SYSTEM_PROMPT the seed's kind of default system prompt is sent", async () => {
    const o = await start();
    await query(o, { prompt: 'hello' });
    assert.match(String(api.requests.at(-1)!.body.system), /^You are a helpful AI assistant\./);
  });

  test('tool calls and results go to general.log with timestamps, by default beside the sessions, private, never on stdout', async () => {
    const o = await start();
    const { sessionId } = await query(o, { prompt: 'log me' });
    const file = join(logsDir(workspace, home), 'general.log');
    const log = readFileSync(file, 'utf8');
    assert.match(log, /^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] \[TOOL_CALL\] Tool: query \{"prompt":"log me"\}$/m);
    assert.match(log, new RegExp(`\\[INFO\\] Created new session: ${sessionId}`));
    assert.match(log, /\[INFO\] Query completed successfully \{"sessionId":"[0-9a-f]{32}","input_tokens":\d+,"output_tokens":\d+\}/);
    assert.match(log, /\[TOOL_RESULT\] Tool: query \{"isError":false,"text":"answer to: log me/);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(logsDir(workspace, home)).mode & 0o777, 0o700);
    assert.doesNotMatch(o.stderr(), /TOOL_CALL/, 'the log goes to its file alone');
  });

  // The timeout bounds a failure only: the log line is awaited as an event.
  test('CLAUDE_LOG_TO_STDERR=true writes the log to stderr instead of a file', { timeout: scaled(30_000) }, async () => {
    const dir = logDir();
    const o = await start({ CLAUDE_LOG_TO_STDERR: 'true', CLAUDE_LOG_DIR: dir });
    await query(o, { prompt: 'to stderr' });
    await o.untilStderr(/\[TOOL_RESULT\] Tool: query/);
    assert.match(o.stderr(), /\[TOOL_CALL\] Tool: query \{"prompt":"to stderr"\}/);
    assert.equal(existsSync(join(dir, 'general.log')), false);
  });

  test('CLAUDE_DISABLE_LOGGING=true logs nothing, anywhere', async () => {
    const dir = logDir();
    const o = await start({ CLAUDE_DISABLE_LOGGING: 'true', CLAUDE_LOG_DIR: dir, CLAUDE_LOG_TO_STDERR: 'true' });
    await query(o, { prompt: 'quiet' });
    assert.doesNotMatch(o.stderr(), /TOOL_CALL|Query completed/);
    assert.equal(existsSync(join(dir, 'general.log')), false);
  });

  test('an API failure is an isError answer that says what happened', async () => {
    const o = await start();
    api.setScript([{ error: 401 }]);
    try {
      const r = await o.call('query', { prompt: 'x' });
      assert.equal(r.isError, true);
      assert.match(textOf(r), /rejected the API key \(401\).*ANTHROPIC_API_KEY/);
    } finally {
      api.setScript((body) => ({ text: `answer to: ${lastUserText(body)}` }));
    }
  });
});
