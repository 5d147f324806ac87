import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAnthropicApi, lastUserText } from '../fakes/anthropic-api';
import { startOrchestrator, textOf, type Orchestrator } from './orchestrator-harness';

/** The claude-agent seed's `query` tool: in-memory sessions, history cap, expiry, the CLAUDE_* settings. */

interface QueryAnswer {
  answer: string;
  sessionId?: string;
  usage: { input_tokens: number; output_tokens: number };
}

describe('orchestrator query tool', () => {
  let api: FakeAnthropicApi;
  let workspace: string;
  const open: Orchestrator[] = [];

  const start = async (env: Record<string, string> = {}): Promise<Orchestrator> => {
    const o = await startOrchestrator(workspace, { env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: api.url, ...env } });
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
  });

  after(async () => {
    await Promise.all(open.map((o) => o.close().catch(() => undefined)));
    await api?.stop();
    rmSync(workspace, { recursive: true, force: true });
  });

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
    assert.deepEqual(api.requests.at(-1)!.body.messages.map((m) => m.content), ['two', 'answer to: two', 'three']);
  });

  test('a session idle past CLAUDE_SESSION_TIMEOUT is forgotten', async () => {
    const o = await start({ CLAUDE_SESSION_TIMEOUT: '0.2' });
    const { sessionId } = await query(o, { prompt: 'remember me' });
    // Idle time is what is under test: nothing to await but the clock.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const later = await query(o, { prompt: 'still there?', sessionId });
    assert.notEqual(later.sessionId, sessionId);
    assert.match(later.text, /unknown or expired/);
    assert.equal(api.requests.at(-1)!.body.messages.length, 1);
  });

  test('CLAUDE_ENABLE_CONVERSATIONS=false answers without sessions', async () => {
    const o = await start({ CLAUDE_ENABLE_CONVERSATIONS: 'false' });
    const r = await query(o, { prompt: 'alone' });
    assert.equal(r.sessionId, undefined);
    assert.match(r.text, /Conversations are off/);
    assert.match(o.stderr(), /query: session -: \d+ in, \d+ out/, 'logged to stderr by default');
  });

  test('CLAUDE_DISABLE_LOGGING=true logs no query', async () => {
    const o = await start({ CLAUDE_DISABLE_LOGGING: 'true' });
    await query(o, { prompt: 'quiet' });
    assert.doesNotMatch(o.stderr(), /query: session/);
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
