import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatHistory } from '../../src/core/chat/chat-history';
import { newChatId, newMeta } from '../../src/core/chat/chat-meta';
import { ChatSession, type TurnConfig } from '../../src/core/chat/chat-session';
import type { ChatEvent } from '../../src/common/protocol';
import { FakeAnthropicApi, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { defaultModels } from '../fakes/fake-models';
import { promptTokenCount } from '../fakes/fake-prompt-cache';
import { host, memoryStore } from '../fakes/tool-host';

const SMALL_WINDOW = 8000;

/** Summary requests get a summary naming the facts it saw; other messages an answer of a few hundred characters. */
function model(body: MessagesBody): Reply {
  const said = lastUserText(body);
  if (/getting too long for the context window/.test(said)) {
    const facts = [...JSON.stringify(body.messages).matchAll(/fact #(\d+)/g)].map((m) => Number(m[1]));
    return { text: `Summary: the person told me facts up to #${Math.max(0, ...facts)}.` };
  }
  return { text: `Noted. ${'Some words of an answer that takes room in the context. '.repeat(6)}` };
}

describe('conversations longer than the context window', () => {
  const api = new FakeAnthropicApi(model);
  let dir: string;
  let client: Anthropic;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'compaction-'));
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
    api.models = [...defaultModels(), { ...defaultModels()[1]!, id: 'claude-small', max_input_tokens: SMALL_WINDOW }];
  });
  after(async () => {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const config = (extra: Partial<TurnConfig> = {}): TurnConfig => ({
    client,
    model: 'claude-small',
    maxTokens: 1024,
    maxIterations: 3,
    toolTimeoutMs: 5000,
    keyHint: '',
    contextWindow: SMALL_WINDOW,
    ...extra,
  });

  test('a 300-turn chat keeps working: older turns are summarised before a request would outgrow the window', async () => {
    const history = new ChatHistory(join(dir, 'long'));
    const meta = newMeta(newChatId(), 'claude-small');
    const chat = new ChatSession({ meta, store: history.store(meta.id), host: host({}), workspace: undefined, approvals: memoryStore() });
    const requestsBefore = api.requests.length;
    for (let i = 1; i <= 300; i++) {
      const status = await chat.send(`Remember fact #${i}: ${'a detail worth keeping '.repeat(8)}`, [], config());
      assert.equal(status, 'done', `turn ${i}: ${JSON.stringify(chat.events.at(-1))}`);
    }
    await chat.flush();
    const compactions = chat.events.filter((e): e is Extract<ChatEvent, { kind: 'compaction' }> => e.kind === 'compaction');
    assert.ok(compactions.length >= 5, `${compactions.length} compactions`);
    assert.ok(compactions.every((c) => c.tokensAfter < c.tokensBefore));
    const sent = api.requests.slice(requestsBefore);
    const biggest = Math.max(...sent.map((r) => promptTokenCount(r.body)));
    assert.ok(biggest <= SMALL_WINDOW, `the largest request was ${biggest} tokens`);
    const last = sent.at(-1)!.body;
    assert.match(JSON.stringify(last.messages[0]), /conversation_summary[\s\S]*facts up to #29\d/, 'the newest summary carries the older facts');
    assert.match(lastUserText(last), /fact #300/);

    const reopened = new ChatSession({
      meta: (await history.get(meta.id))!,
      store: history.store(meta.id),
      host: host({}),
      workspace: undefined,
      approvals: memoryStore(),
    });
    await reopened.load();
    assert.ok(reopened.messages.length < 20, `the saved conversation is the compacted one (${reopened.messages.length} messages)`);
    assert.equal(reopened.events.filter((e) => e.kind === 'user').length, 300, 'the person still sees every message');
  });

  test('when the API says the prompt is too long after all, the chat is compacted and the request asked again', async () => {
    const history = new ChatHistory(join(dir, 'reactive'));
    const meta = newMeta(newChatId(), 'claude-test');
    const chat = new ChatSession({ meta, store: history.store(meta.id), host: host({}), workspace: undefined, approvals: memoryStore() });
    // A big window the agent trusts, a real limit the fake enforces: the estimate cannot see it coming.
    const big = config({ model: 'claude-test', contextWindow: 1_000_000 });
    for (let i = 1; i <= 8; i++) await chat.send(`Remember fact #${i}: ${'x'.repeat(800)}`, [], big);
    api.promptTokenLimit = promptTokenCount(api.requests.at(-1)!.body) + 100;
    try {
      const status = await chat.send(`One more, fact #9: ${'y'.repeat(1200)}`, [], big);
      assert.equal(status, 'done', JSON.stringify(chat.events.slice(-3)));
      assert.equal(chat.events.filter((e) => e.kind === 'compaction').length, 1);
      assert.match(JSON.stringify(api.requests.at(-1)!.body.messages[0]), /facts up to #\d/);
    } finally {
      api.promptTokenLimit = undefined;
    }
  });
});
