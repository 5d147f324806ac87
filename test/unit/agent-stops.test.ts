import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { Agent } from '../../src/core/agent/agent';
import type { Effort } from '../../src/core/agent/agent-options';
import type { AgentOutput } from '../../src/core/agent/types';
import type { ChatEvent } from '../../src/common/protocol';
import { FakeAnthropicApi, lastUserText, unmarked, type Reply } from '../fakes/anthropic-api';
import { host, memoryStore } from '../fakes/tool-host';

describe('how the loop handles each stop reason, and thinking', () => {
  const api = new FakeAnthropicApi();
  let client: Anthropic;
  before(async () => {
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
  });
  after(() => api.stop());

  async function turn(script: Reply[], effort?: Effort, a?: Agent) {
    api.setScript(script);
    api.requests.length = 0;
    const agent =
      a ?? new Agent({ client, host: host({}), model: 'claude-test', workspaceName: 'ws', approvals: memoryStore(), askApproval: async () => 'once', effort });
    const out: AgentOutput[] = [];
    const status = await agent.runTurn({ text: 'write a long story' }, (o) => out.push(o), new AbortController().signal);
    const events = out.flatMap((o) => (o.type === 'event' ? [o.event] : []));
    return { status, events, agent, end: events.find((e): e is Extract<ChatEvent, { kind: 'turn_end' }> => e.kind === 'turn_end') };
  }

  test('Stop while a reply streams: what came is kept as an interrupted reply, and the next message is a turn of its own', async () => {
    api.setScript([
      { text: 'Deleting the old tests now: first test_a.py, then test_b.py, then the rest of them', chunk: 4, delayMs: 40 },
      { text: 'Here is the list.' },
    ]);
    api.requests.length = 0;
    const agent = new Agent({ client, host: host({}), model: 'claude-test', workspaceName: 'ws', approvals: memoryStore(), askApproval: async () => 'once' });
    const stop = new AbortController();
    const out: AgentOutput[] = [];
    const stopped = agent.runTurn(
      { text: 'delete the old tests' },
      (o) => {
        out.push(o);
        if (o.type === 'delta') stop.abort();
      },
      stop.signal,
    );
    assert.equal(await stopped, 'stopped');
    const kept = out.flatMap((o) => (o.type === 'event' && o.event.kind === 'assistant_text' ? [o.event.text] : []));
    assert.equal(kept.length, 1, 'the chat keeps what it showed');
    assert.ok('Deleting the old tests now'.startsWith(kept[0]!.slice(0, 10)), kept[0]);

    const next = await agent.runTurn({ text: 'no, just list them' }, () => undefined, new AbortController().signal);
    assert.equal(next, 'done');
    const sent = unmarked(api.requests.at(-1)!.body.messages);
    assert.deepEqual(
      sent.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.match(JSON.stringify(sent[1]), /Interrupted: the person stopped this reply here/);
    assert.doesNotMatch(JSON.stringify(sent[2]), /delete the old tests/, 'the stopped request is not sent again as part of the new one');
  });

  test('Stop before any reply: the stopped message is closed for the model, never joined to the next', async () => {
    api.setScript([{ hang: true }, { text: 'Here is the list.' }]);
    api.requests.length = 0;
    const agent = new Agent({ client, host: host({}), model: 'claude-test', workspaceName: 'ws', approvals: memoryStore(), askApproval: async () => 'once' });
    const stop = new AbortController();
    const stopped = agent.runTurn({ text: 'delete the old tests' }, () => undefined, stop.signal);
    await api.waitForRequests(1);
    stop.abort();
    assert.equal(await stopped, 'stopped');
    assert.equal(await agent.runTurn({ text: 'no, just list them' }, () => undefined, new AbortController().signal), 'done');
    const sent = unmarked(api.requests.at(-1)!.body.messages);
    assert.deepEqual(
      sent.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.match(JSON.stringify(sent[1]), /No reply to the message above/);
  });

  test('a reply cut off by max_tokens goes on by itself once, and the person sees both parts', async () => {
    const { status, events } = await turn([{ text: 'Once upon a time', stopReason: 'max_tokens' }, { text: ' they lived happily.' }]);
    assert.equal(status, 'done');
    assert.equal(api.requests.length, 2);
    assert.match(lastUserText(api.requests[1]!.body), /cut off by the output limit\. Go on from exactly where it stopped/);
    assert.deepEqual(
      events.filter((e) => e.kind === 'assistant_text').map((e) => (e as { text: string }).text),
      ['Once upon a time', ' they lived happily.'],
    );
  });

  test('cut off twice: the turn ends saying so, with Continue', async () => {
    const { status, end } = await turn([
      { text: 'A', stopReason: 'max_tokens' },
      { text: 'B', stopReason: 'max_tokens' },
    ]);
    assert.equal(status, 'max_tokens');
    assert.equal(end?.action, 'continue');
    assert.match(end?.error ?? '', /output limit \(8192 tokens, the mcpAgent\.maxTokens setting\) twice/);
  });

  test('a refusal ends the turn with a message, not silence', async () => {
    const { status, end } = await turn([{ text: '', stopReason: 'refusal' }]);
    assert.equal(status, 'error');
    assert.match(end?.error ?? '', /declined/);
  });

  test('pause_turn: the paused reply is sent back as it is and the model goes on', async () => {
    const { status } = await turn([{ text: 'Searching…', stopReason: 'pause_turn' }, { text: 'Found it.' }]);
    assert.equal(status, 'done');
    const second = unmarked(api.requests[1]!.body.messages);
    assert.equal(second.at(-1)?.role, 'assistant', 'nothing is added after the paused reply');
  });

  test('thinking is shown as its own event and sent back with its signature (the fake refuses it otherwise)', async () => {
    const first = await turn([{ thinking: 'The person wants a story; keep it short.', text: 'Here it is.' }]);
    assert.deepEqual(
      first.events.filter((e) => e.kind === 'thinking').map((e) => (e as { text: string }).text),
      ['The person wants a story; keep it short.'],
    );
    const second = await turn([{ text: 'And another.' }], undefined, first.agent);
    assert.equal(second.status, 'done', JSON.stringify(second.end));
    assert.match(
      JSON.stringify(api.requests[0]!.body.messages),
      /"type":"thinking","thinking":"The person wants a story; keep it short\.","signature":"fake-sig-/,
    );
  });

  test('an effort level reaches the request as output_config.effort; none leaves it out', async () => {
    await turn([{ text: 'ok' }], 'low');
    assert.deepEqual((api.requests[0]!.body as unknown as { output_config?: unknown }).output_config, { effort: 'low' });
    await turn([{ text: 'ok' }]);
    assert.equal((api.requests[0]!.body as unknown as { output_config?: unknown }).output_config, undefined);
  });
});

test('a tool that declares long work (mcpAgent/maxSeconds) gets that much in all; others get the host cap', async () => {
  const api = new FakeAnthropicApi([{ text: '', toolUses: [{ name: 'orch__start_agent' }, { name: 'ws__read' }] }, { text: 'done' }]);
  const client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
  try {
    const totals = new Map<string, number | undefined>();
    const h = host({
      orch__start_agent: {
        readOnly: true,
        meta: { 'mcpAgent/maxSeconds': 1800 },
        run: async (_a, _s, o) => (totals.set('start', o?.maxTotalTimeoutMs), { content: [] }),
      },
      ws__read: { readOnly: true, run: async (_a, _s, o) => (totals.set('read', o?.maxTotalTimeoutMs), { content: [] }) },
    });
    const agent = new Agent({
      client,
      host: h,
      model: 'claude-test',
      workspaceName: 'ws',
      approvals: memoryStore(),
      askApproval: async () => 'once',
      toolTimeoutMs: 120_000,
    });
    await agent.runTurn({ text: 'go' }, () => undefined, new AbortController().signal);
    assert.equal(totals.get('start'), 1_800_000);
    assert.equal(totals.get('read'), 120_000);
  } finally {
    await api.stop();
  }
});
