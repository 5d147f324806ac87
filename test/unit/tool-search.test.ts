// The agent with more tools than the definition budget, against the fake Messages API's tool search
// (which refuses what the real API refuses and lets its scripted model call only tools it can see): the
// API's own search where it is there, the host's search_tools where it is not, and the fall back from one
// to the other; every tool reached, turned-off tools never sent, the person told once.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { Agent } from '../../src/core/agent/agent';
import type { AgentOutput, ToolHost } from '../../src/core/agent/types';
import type { HubTool } from '../../src/core/mcp/types';
import type { ChatEvent } from '../../src/common/protocol';
import { CORE_TOOLS, definitionTokens } from '../../src/core/tool-offer/tool-plan';
import { withToolChoices } from '../../src/core/tool-offer/tool-choices';
import type { ToolSearchSetting } from '../../src/core/tool-offer/tool-search-mode';
import { FakeAnthropicApi, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { memoryStore } from '../fakes/tool-host';

function tool(server: string, name: string, description: string): HubTool {
  return {
    server,
    qualifiedName: `${server}__${name}`,
    tool: {
      name,
      description,
      inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'Which record.' } } },
      annotations: { readOnlyHint: true },
    },
  };
}

/** The core bundled tools and a catalogue of `n` more, as plain functions that record their calls. */
function manyTools(n: number): ToolHost & { calls: string[]; all: HubTool[] } {
  const all = [
    ...[...CORE_TOOLS].map((q) => tool(q.split('__')[0]!, q.split('__')[1]!, `The bundled ${q}.`)),
    ...Array.from({ length: n }, (_, i) => tool('many', `tool_${i}`, `Tool number ${i}: export invoices in the billing service, as JSON.`)),
  ];
  const calls: string[] = [];
  return {
    all,
    calls,
    tools: () => all,
    callTool: async (tool) => {
      const name = typeof tool === 'string' ? tool : tool.qualifiedName;
      calls.push(name);
      return { content: [{ type: 'text', text: `ran ${name}` }] };
    },
  };
}

const TOOL_SEARCH_MODEL = 'claude-sonnet-5-5';
const OLD_MODEL = 'claude-sonnet-4-20250514';

describe('many tools: deferred, found by search, every one callable', () => {
  const api = new FakeAnthropicApi();
  let client: Anthropic;
  before(async () => {
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
  });
  after(() => api.stop());

  function agent(host: ToolHost, toolSearch: ToolSearchSetting, model = TOOL_SEARCH_MODEL): Agent {
    return new Agent({ client, host, model, toolSearch, workspaceName: 'ws', approvals: memoryStore(), askApproval: async () => 'once' });
  }

  async function turn(a: Agent, text: string, script: Reply[] | ((body: MessagesBody, i: number) => Reply)) {
    api.setScript(script);
    api.requests.length = 0;
    const out: AgentOutput[] = [];
    const status = await a.runTurn({ text }, (o) => out.push(o), new AbortController().signal);
    const events = out.flatMap((o) => (o.type === 'event' ? [o.event] : []));
    return { status, events, requests: api.requests.slice() };
  }

  test("the API's tool search: deferred definitions, the model finds and calls a tool in the same model call, the person is told once", async () => {
    const host = manyTools(1000);
    const a = agent(host, 'api');
    const first = await turn(a, 'export invoice 299', [{ toolSearch: { query: 'tool 299', use: true, input: { id: 'inv-1' } } }, { text: 'Exported.' }]);
    assert.equal(first.status, 'done');
    assert.deepEqual(host.calls, ['many__tool_299'], 'reached with the first model call');
    const body = first.requests[0]!.body;
    const search = body.tools!.find((t) => t.type === 'tool_search_tool_bm25_20251119');
    assert.deepEqual(search, { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25', cache_control: { type: 'ephemeral' } });
    assert.equal(body.tools!.filter((t) => t.defer_loading).length, 1000);
    assert.deepEqual(
      body
        .tools!.filter((t) => !t.defer_loading && !t.type)
        .map((t) => t.name)
        .sort(),
      [...CORE_TOOLS].sort(),
    );
    // The API bills the loaded definitions only: a fraction of the catalogue.
    const billed = first.requests[0]!.billed!;
    assert.ok(billed.input_tokens + billed.cache_creation_input_tokens < 0.1 * definitionTokens(host.all), JSON.stringify(billed));
    // The search is a card of its own, and the tool it found ran as any tool does.
    const cards = first.events.filter((e): e is Extract<ChatEvent, { kind: 'tool_call' }> => e.kind === 'tool_call');
    assert.deepEqual(
      cards.map((c) => `${c.server} ${c.tool}`),
      ['Messages API tool_search_tool_bm25', 'many tool_299'],
    );
    const notices = first.events.filter((e) => e.kind === 'notice');
    assert.deepEqual(
      notices.map((n) => n.kind === 'notice' && n.text),
      ['1,009 tools from 3 servers: 9 loaded, the rest found by search.'],
    );
    // The reply with its search goes back as the API sent it; a later turn calls the found tool directly and says nothing again.
    const second = await turn(a, 'and again', [{ toolUses: [{ name: 'many__tool_299', input: {} }] }, { text: 'Done.' }]);
    assert.equal(second.status, 'done');
    assert.deepEqual(host.calls, ['many__tool_299', 'many__tool_299']);
    assert.equal(second.events.filter((e) => e.kind === 'notice').length, 0);
    const sent = second.requests[0]!.body.messages[1]!.content as Array<{ type: string }>;
    assert.deepEqual(
      sent.map((b) => b.type),
      ['server_tool_use', 'tool_search_tool_result', 'tool_use'],
    );
  });

  test('the prompt cache holds over a 20-turn chat: from the second call on, at least 90 % of the input is read from it', async () => {
    const a = agent(manyTools(1000), 'api');
    let n = 0;
    const script = (body: MessagesBody): Reply =>
      n++ % 2 === 0 ? { toolSearch: { query: `tool ${n * 7}`, use: true } } : { text: `Done with ${lastUserText(body).slice(0, 20)}.` };
    const billed = [];
    for (let i = 0; i < 20; i++) billed.push(...(await turn(a, `turn ${i}`, script)).requests.map((r) => r.billed!));
    const later = billed.slice(1);
    const read = later.reduce((s, b) => s + b.cache_read_input_tokens, 0);
    const all = later.reduce((s, b) => s + b.cache_read_input_tokens + b.cache_creation_input_tokens + b.input_tokens, 0);
    assert.ok(read / all >= 0.9, `${((100 * read) / all).toFixed(1)} % read from the cache`);
  });

  test("the host's search_tools finds in one model call, call_tool calls in the next, and the request's tools never change", async () => {
    const host = manyTools(1000);
    const a = agent(host, 'host');
    const found = (body: MessagesBody): string => /^## (\S+)$/m.exec(lastUserText(body))?.[1] ?? 'nothing found';
    const { status, requests, events } = await turn(a, 'export invoice 299', (body, i) =>
      i === 0
        ? { toolUses: [{ name: 'search_tools', input: { query: 'tool 299' } }] }
        : i === 1
          ? { toolUses: [{ name: 'call_tool', input: { name: found(body), arguments: { id: 'inv-1' } } }] }
          : { text: 'Exported.' },
    );
    assert.equal(status, 'done');
    assert.deepEqual(host.calls, ['many__tool_299'], 'reached with the second model call');
    const [r1, r2, r3] = requests.map((r) => JSON.stringify(r.body.tools));
    assert.ok(r1 === r2 && r2 === r3, 'the tools, first in the cached prefix, stay the same');
    assert.ok(
      requests.every((r) => !r.body.tools!.some((t) => t.defer_loading || t.type)),
      'nothing the API must know of',
    );
    // The card is the tool's own, with its own input.
    const cards = events.filter((e): e is Extract<ChatEvent, { kind: 'tool_call' }> => e.kind === 'tool_call');
    assert.deepEqual(
      cards.map((c) => [c.server, c.tool, c.input]),
      [
        ['mcp-agent', 'search_tools', { query: 'tool 299' }],
        ['many', 'tool_299', { id: 'inv-1' }],
      ],
    );
  });

  test("an API that refuses its tool search (an older model here) gets the host's search instead, and is not asked again", async () => {
    const host = manyTools(1000);
    const a = agent(host, 'api', OLD_MODEL);
    const { status, requests } = await turn(a, 'hi', [{ text: 'Hello.' }]);
    assert.equal(status, 'done');
    assert.equal(requests.length, 2);
    assert.equal(requests[0]!.billed, undefined, 'the first was refused');
    assert.ok(requests[1]!.body.tools!.some((t) => t.name === 'search_tools'));
    const again = await turn(agent(host, 'api', OLD_MODEL), 'hi', [{ text: 'Hello.' }]);
    assert.equal(again.requests.length, 1, 'the next chat goes straight to the host search');
  });

  test("the fake's model cannot call a deferred tool it never found (as the real one cannot see it)", async () => {
    const { status, events } = await turn(agent(manyTools(1000), 'api'), 'x', [{ toolUses: [{ name: 'many__tool_5', input: {} }] }]);
    assert.equal(status, 'error');
    assert.match(JSON.stringify(events.at(-1)), /many__tool_5, which is deferred and was never found/);
  });

  test('the fake refuses what the API documents it refuses: every tool deferred, a reference to no tool, tool search on a model without it', async () => {
    const weather: Anthropic.Tool = { name: 'get_weather', input_schema: { type: 'object' } };
    const search: Anthropic.ToolSearchToolBm25_20251119 = { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };
    const ask = (tools: Anthropic.ToolUnion[], messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'hi' }], model = TOOL_SEARCH_MODEL) =>
      client.messages.create({ model, max_tokens: 100, tools, messages }).then(
        () => 'ok',
        (err: Error) => err.message,
      );
    api.setScript(() => ({ text: 'ok' }));
    assert.match(await ask([{ ...weather, defer_loading: true }]), /All tools have defer_loading set/);
    assert.match(await ask([search, { ...weather, defer_loading: true }], [], OLD_MODEL), /not supported on model/);
    const referenced: Anthropic.MessageParam[] = [
      { role: 'user', content: 'weather?' },
      {
        role: 'assistant',
        content: [
          { type: 'server_tool_use', id: 'srv1', name: 'tool_search_tool_bm25', input: { query: 'weather' } },
          {
            type: 'tool_search_tool_result',
            tool_use_id: 'srv1',
            content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'get_forecast' }] },
          },
        ],
      },
      { role: 'user', content: 'go on' },
    ];
    assert.match(await ask([search, { ...weather, defer_loading: true }], referenced), /Tool reference 'get_forecast' has no corresponding tool definition/);
    assert.equal(
      await ask([search, { ...weather, defer_loading: true }, { name: 'get_forecast', input_schema: { type: 'object' }, defer_loading: true }], referenced),
      'ok',
    );
  });

  test('a tool turned off is never sent, cannot be called, and the answer does not list thousands of names', async () => {
    const host = manyTools(1000);
    const choices = withToolChoices(host, { isOff: (s, t) => t === 'tool_3', isPinned: () => false });
    const { requests, events } = await turn(agent(choices, 'api'), 'x', [{ toolUses: [{ name: 'many__tool_3', input: {} }] }, { text: 'ok' }]);
    assert.ok(!requests[0]!.body.tools!.some((t) => t.name === 'many__tool_3'));
    assert.deepEqual(host.calls, []);
    const result = events.find((e) => e.kind === 'tool_result');
    const text = result?.kind === 'tool_result' ? JSON.stringify(result.content) : '';
    assert.match(text, /There is no tool named many__tool_3 .*turned it off.*999 more can be found with the tool search tool/);
    assert.ok(text.length < 2000, `${text.length} characters`);
  });
});
