import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { Agent } from '../../src/core/agent/agent';
import { withCacheBreakpoints } from '../../src/core/agent/prompt-cache';
import type { AgentOutput, ToolHost } from '../../src/core/agent/types';
import type { ChatEvent, TurnUsage } from '../../src/common/protocol';
import { FakeAnthropicApi, type MessagesBody } from '../fakes/anthropic-api';
import { FakePromptCache } from '../fakes/fake-prompt-cache';
import { host, memoryStore } from '../fakes/tool-host';

const ok = async () => ({ content: [{ type: 'text' as const, text: 'x'.repeat(400) }] });

function marks(body: MessagesBody): string[] {
  const out: string[] = [];
  body.tools?.forEach((t, i) => t.cache_control && out.push(`tool ${i}`));
  if (Array.isArray(body.system)) body.system.forEach((b, i) => b.cache_control && out.push(`system ${i}`));
  body.messages.forEach((m, i) => Array.isArray(m.content) && m.content.forEach((b, j) => b.cache_control && out.push(`message ${i}.${j}`)));
  return out;
}

describe('cache breakpoints', () => {
  const tools: Anthropic.Tool[] = [
    { name: 'a', input_schema: { type: 'object' } },
    { name: 'b', input_schema: { type: 'object' } },
  ];

  test("mark the tool list, the system prompt, the previous call's newest message and the newest one, without changing the history", () => {
    const history: Anthropic.MessageParam[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'a', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'r' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'ok' },
          { type: 'tool_use', id: 't2', name: 'b', input: {} },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'r2' }] },
    ];
    const before = JSON.stringify(history);
    const req = withCacheBreakpoints(tools, 'sys', history);
    assert.deepEqual(marks({ model: 'm', max_tokens: 1, ...req } as unknown as MessagesBody), ['tool 1', 'system 0', 'message 2.0', 'message 4.0']);
    assert.equal(JSON.stringify(history), before, 'the conversation itself carries no breakpoint');
    assert.equal(req.messages[0], history[0], 'unmarked messages are the same objects');
  });

  test('a string message becomes one marked block; thinking and empty text are skipped', () => {
    const req = withCacheBreakpoints(tools, 'sys', [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'thinking', thinking: 't', signature: 's' },
          { type: 'text', text: '' },
        ],
      },
    ]);
    assert.deepEqual(req.messages[0]!.content, [{ type: 'text', text: 'hello', cache_control: { type: 'ephemeral' } }]);
    const blocks = req.messages[2]!.content as Array<{ cache_control?: unknown }>;
    assert.deepEqual(
      blocks.map((b) => b.cache_control !== undefined),
      [true, false, false],
    );
  });
});

describe("the fake API's prompt cache", () => {
  test('reads the longest cached prefix within 20 blocks before a breakpoint and writes up to the last breakpoint', () => {
    const cache = new FakePromptCache(0);
    const msg = (n: number, mark = false) => ({
      role: (n % 2 ? 'assistant' : 'user') as 'user' | 'assistant',
      content: [{ type: 'text', text: `message ${n} `.repeat(10), ...(mark ? { cache_control: { type: 'ephemeral' } } : {}) }],
    });
    const first = cache.bill({ model: 'm', max_tokens: 1, messages: [msg(0), msg(1), msg(2, true)] });
    assert.equal(first.cache_read_input_tokens, 0);
    assert.ok(first.cache_creation_input_tokens > 0 && first.input_tokens === 0);
    const second = cache.bill({ model: 'm', max_tokens: 1, messages: [msg(0), msg(1), msg(2), msg(3), msg(4, true)] });
    assert.equal(second.cache_read_input_tokens, first.cache_creation_input_tokens, 'the earlier prefix is found by looking back');
    const longAway = cache.bill({ model: 'm', max_tokens: 1, messages: [...Array.from({ length: 30 }, (_, i) => msg(i)), msg(30, true)] });
    assert.equal(longAway.cache_read_input_tokens, 0, 'more than 20 blocks after the last cached prefix, nothing is found');
    const otherModel = cache.bill({ model: 'other', max_tokens: 1, messages: [msg(0), msg(1), msg(2, true)] });
    assert.equal(otherModel.cache_read_input_tokens, 0, 'each model has its own cache');
  });
});

describe('prompt caching in the agent loop', () => {
  const api = new FakeAnthropicApi();
  let client: Anthropic;
  before(async () => {
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
  });
  beforeEach(() => {
    api.requests.length = 0;
    api.cache.clear();
    // These prompts are a few hundred tokens, below the real minimum of 1024 that a prefix must reach to be cached.
    api.cache.minTokens = 64;
  });
  after(() => api.stop());

  /** The model calls a tool three times, then answers: a turn of four model calls. */
  const threeCalls = (body: MessagesBody) => {
    const isResults = (m: MessagesBody['messages'][number]) => Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_result');
    const question = body.messages.map((m) => m.role === 'user' && !isResults(m)).lastIndexOf(true);
    const answered = body.messages.slice(question + 1).filter(isResults).length;
    return answered >= 3 ? { text: 'done' } : { text: '', toolUses: [{ name: 'ws__read', input: { n: body.messages.length } }] };
  };

  function agent(h: ToolHost, extra: Partial<ConstructorParameters<typeof Agent>[0]> = {}): Agent {
    return new Agent({ client, host: h, model: 'claude-sonnet-5-5', workspaceName: 'ws', approvals: memoryStore(), askApproval: async () => 'once', ...extra });
  }

  async function turn(a: Agent, text: string): Promise<{ usage: TurnUsage | undefined; events: ChatEvent[] }> {
    const out: AgentOutput[] = [];
    await a.runTurn({ text }, (o) => out.push(o), new AbortController().signal);
    const events = out.flatMap((o) => (o.type === 'event' ? [o.event] : []));
    const end = events.find((e) => e.kind === 'turn_end');
    return { usage: end?.kind === 'turn_end' ? end.usage : undefined, events };
  }

  test('from the second call of a turn on, and across turns, nearly all input is read from the cache', async () => {
    api.setScript(threeCalls);
    const a = agent(host({ ws__read: { readOnly: true, run: ok } }));
    const first = await turn(a, 'read it three times');
    const second = await turn(a, 'again');
    assert.equal(api.requests.length, 8, 'two turns of four model calls');
    assert.ok(first.usage && second.usage);
    // Billed per request: the fake reports each; the turn's sum is what the chat shows.
    const prompt = (u: TurnUsage) => u.input + u.cacheRead + u.cacheWrite;
    // Each call reads from the cache everything the call before it sent: only the newest reply and results are new.
    const billed = api.requests.map((r) => r.billed!);
    for (let i = 1; i < billed.length; i++) {
      const before = billed[i - 1]!;
      assert.equal(
        billed[i]!.cache_read_input_tokens,
        before.cache_read_input_tokens + before.cache_creation_input_tokens + before.input_tokens,
        `call ${i + 1} reads all of call ${i}'s prompt`,
      );
    }
    assert.ok(second.usage.cacheRead / prompt(second.usage) >= 0.8, `second turn read ${second.usage.cacheRead} of ${prompt(second.usage)} from the cache`);
    assert.equal(first.usage.model, 'claude-sonnet-5-5');
    const expected = (first.usage.input * 2 + first.usage.output * 10 + first.usage.cacheRead * 0.1 + first.usage.cacheWrite * 2.5) / 1e6;
    assert.ok(Math.abs((first.usage.costUsd ?? -1) - expected) < 1e-12, 'cost comes from the price table');
  });

  test('without caching nothing is marked and everything is billed at full price', async () => {
    api.setScript(threeCalls);
    const a = agent(host({ ws__read: { readOnly: true, run: ok } }), { promptCaching: false });
    const { usage } = await turn(a, 'read it three times');
    assert.deepEqual(
      api.requests.flatMap((r) => marks(r.body)),
      [],
    );
    assert.equal(usage?.cacheRead, 0);
    assert.equal(usage?.cacheWrite, 0);
  });

  test('a model without a known price shows tokens and no cost', async () => {
    api.setScript([{ text: 'hi' }]);
    const { usage } = await turn(agent(host({}), { model: 'claude-unknown-9' }), 'hi');
    assert.ok(usage && usage.input + usage.cacheWrite > 0 && usage.output > 0);
    assert.equal(usage.costUsd, undefined);
  });

  test('a tool that appears mid-chat does not rewrite the system prompt: the next message says what changed', async () => {
    api.setScript([{ text: 'one' }, { text: 'two' }]);
    const tools = { ws__read: { readOnly: true, run: ok } } as Record<string, { readOnly: boolean; run: typeof ok }>;
    let current: ToolHost = host(tools);
    const a = agent({ tools: () => current.tools(), callTool: (name, args, options) => current.callTool(name, args, options) });
    await turn(a, 'first');
    current = host({ ...tools, web__fetch: { readOnly: true, run: ok } });
    await turn(a, 'second');
    const [r1, r2] = api.requests;
    assert.deepEqual(r2!.body.system, r1!.body.system, 'the same system prompt');
    assert.deepEqual(
      r2!.body.tools?.map((t) => t.name),
      ['ws__read', 'web__fetch'],
      'the new tool is offered',
    );
    const last = r2!.body.messages.at(-1)!.content as Array<{ type: string; text?: string }>;
    assert.match(last[0]!.text ?? '', /tool list changed.*now available: web__fetch/);
    assert.equal(last.at(-1)!.text, 'second');
  });
});
