// What a request offers the model of many tools (src/core/tool-offer): which search (the API's or the
// host's) for which model and base URL, the budget past which definitions are deferred, what stays
// loaded, the host's own search, and a conversation fitted to the tools a request defines.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type Anthropic from '@anthropic-ai/sdk';
import type { ToolHost } from '../../src/core/agent/types';
import type { HubTool } from '../../src/core/mcp/types';
import { modelHasToolSearch, rememberRefusal, toolSearchFor } from '../../src/core/tool-offer/tool-search-mode';
import { CORE_TOOLS, DEFINITION_BUDGET_TOKENS, definitionTokens, planSummary, planTools } from '../../src/core/tool-offer/tool-plan';
import { rankTools } from '../../src/core/tool-offer/bm25';
import { CALL_TOOL, searchTools, SEARCH_TOOLS } from '../../src/core/tool-offer/host-search';
import { fitSearchBlocks } from '../../src/core/tool-offer/search-blocks';
import { MAX_API_CATALOG, ToolOffer } from '../../src/core/tool-offer/tool-offer';
import { withToolChoices } from '../../src/core/tool-offer/tool-choices';
import { freezeSystem, toldDeferred, toolChangeNote } from '../../src/core/agent/frozen-system';

function tool(server: string, name: string, description = `Does ${name.replace(/_/g, ' ')}.`): HubTool {
  return {
    server,
    qualifiedName: `${server}__${name}`,
    tool: { name, description, inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'Which one.' } } } },
  };
}
const bundled = [...CORE_TOOLS].map((n) => tool(n.split('__')[0]!, n.split('__')[1]!)).concat(tool('research', 'search_papers'));
const catalog = (n: number): HubTool[] =>
  Array.from({ length: n }, (_, i) => tool('many', `tool_${i}`, `Tool number ${i}: ${['archive', 'export', 'merge'][i % 3]} invoices in the billing service.`));
const nameOf = (t: Anthropic.ToolUnion): string => (t as { name: string }).name;
const hostOf = (tools: HubTool[], pinned: string[] = []): ToolHost => ({
  tools: () => tools,
  pinned: (t) => pinned.includes(t.qualifiedName),
  callTool: async (tool) => ({ content: [{ type: 'text', text: typeof tool === 'string' ? tool : tool.qualifiedName }] }),
});

describe('which tool search', () => {
  test('the API has tool search for Claude 4.5 and later, not for Claude 3 or the first Claude 4 models', () => {
    for (const m of ['claude-sonnet-5-5', 'claude-opus-5', 'claude-haiku-4-5-20251001', 'claude-sonnet-4-5-20250929', 'claude-opus-4-6', 'claude-fable-5-1'])
      assert.ok(modelHasToolSearch(m), m);
    for (const m of ['claude-sonnet-4-20250514', 'claude-opus-4-1-20250805', 'claude-3-5-haiku-20241022', 'claude-test', 'gpt-5'])
      assert.ok(!modelHasToolSearch(m), m);
  });

  test("auto: the API's search on Anthropic's API with such a model; the host's behind another base URL or with another model", () => {
    assert.equal(toolSearchFor('claude-sonnet-5-5', undefined), 'api');
    assert.equal(toolSearchFor('claude-sonnet-5-5', 'https://api.anthropic.com'), 'api');
    assert.equal(toolSearchFor('claude-sonnet-5-5', 'http://127.0.0.1:4000'), 'host', 'a proxy');
    assert.equal(toolSearchFor('claude-sonnet-5-5', 'https://gateway.example.com/anthropic'), 'host');
    assert.equal(toolSearchFor('claude-sonnet-4-20250514', undefined), 'host', 'an older model');
    assert.equal(toolSearchFor('claude-sonnet-5-5', 'http://127.0.0.1:4000', 'api'), 'api', 'forced');
    assert.equal(toolSearchFor('claude-sonnet-5-5', undefined, 'host'), 'host', 'forced');
    rememberRefusal('claude-opus-5', 'http://refusing.example');
    assert.equal(toolSearchFor('claude-opus-5', 'http://refusing.example', 'api'), 'host', 'an API that refused is not asked again');
  });
});

describe('the plan: what is loaded, what is found by search', () => {
  test('within the budget every tool is loaded', () => {
    const plan = planTools(hostOf([...bundled, ...catalog(20)]));
    assert.ok(definitionTokens(plan.all) <= DEFINITION_BUDGET_TOKENS);
    assert.equal(plan.deferred.length, 0);
    assert.equal(planSummary(plan), '30 tools from 4 servers, all loaded');
  });

  test('past it, the core bundled tools and pinned ones stay loaded, every other tool is deferred, none dropped', () => {
    const all = [...bundled, ...catalog(1000)];
    const plan = planTools(hostOf(all, ['many__tool_7']));
    assert.deepEqual(plan.loaded.map((t) => t.qualifiedName).sort(), [...CORE_TOOLS, 'many__tool_7'].sort());
    assert.equal(plan.loaded.length + plan.deferred.length, all.length);
    assert.equal(planSummary(plan), '1,010 tools from 4 servers: 10 loaded, the rest found by search');
    assert.ok(definitionTokens(plan.loaded) < 0.05 * definitionTokens(all), 'under 5 % of sending them all');
  });

  test('a tool turned off is neither planned nor found, and a pin counts only while it is on', () => {
    const off = withToolChoices(hostOf([...bundled, ...catalog(1000)]), {
      isOff: (s, t) => t === 'tool_3',
      isPinned: (s, t) => t === 'tool_3' || t === 'tool_4',
    });
    const plan = planTools(off);
    assert.ok(!plan.all.some((t) => t.tool.name === 'tool_3'));
    assert.ok(plan.loaded.some((t) => t.tool.name === 'tool_4'));
    assert.equal(off.findTool?.('many__tool_3'), undefined);
  });
});

describe('search', () => {
  const tools = catalog(1000);
  test('BM25 over names, descriptions and arguments: a number, words, an exact name', () => {
    assert.equal(rankTools(tools, 'tool 299', 5)[0]?.qualifiedName, 'many__tool_299');
    assert.equal(rankTools(tools, 'many__tool_42', 5)[0]?.qualifiedName, 'many__tool_42');
    assert.ok(rankTools(tools, 'merge invoices', 5).every((t) => /merge/.test(t.tool.description ?? '')));
    assert.deepEqual(rankTools(tools, 'weather forecast', 5), []);
  });

  test('search_tools returns full definitions and says to call them with call_tool', () => {
    const result = searchTools(tools, { query: 'tool 299', limit: 2 });
    const text = (result.content[0] as { text: string }).text;
    assert.match(text, /^2 tools for "tool 299": call one with call_tool/);
    assert.match(text, /^## many__tool_299\nTool number 299: .*\nInput schema: \{"type":"object"/m);
    assert.equal([...text.matchAll(/^## /gm)].length, 2);
    assert.equal(searchTools(tools, { limit: 2 }).isError, true);
  });
});

describe('requests', () => {
  test("api: loaded tools, the API's search tool (the cache breakpoint), then every other tool with defer_loading", () => {
    const offer = new ToolOffer(hostOf([...bundled, ...catalog(1000)]), 'api');
    const r = offer.request([]);
    assert.equal(r.search, 'api');
    const names = r.tools.map(nameOf);
    assert.equal(names[r.cacheAt], 'tool_search_tool_bm25');
    assert.ok(r.tools.slice(0, r.cacheAt).every((t) => !('defer_loading' in t)));
    assert.ok(r.tools.slice(r.cacheAt + 1).every((t) => 'defer_loading' in t && t.defer_loading === true));
    assert.equal(r.tools.length, 1010 + 1);
  });

  test('host: loaded tools, then search_tools and call_tool, the same whatever was found; past the API catalogue limit too', () => {
    const offer = new ToolOffer(hostOf([...bundled, ...catalog(1000)]), 'host');
    const r = offer.request([{ role: 'user', content: 'x' }]);
    assert.deepEqual(r.tools.slice(-2).map(nameOf), [SEARCH_TOOLS, CALL_TOOL]);
    assert.equal(r.cacheAt, r.tools.length - 1);
    assert.equal(offer.host.findTool?.(SEARCH_TOOLS)?.qualifiedName, SEARCH_TOOLS);
    assert.deepEqual(offer.unwrap({ name: CALL_TOOL, input: { name: 'many__tool_9', arguments: { id: 'a' } } }), { name: 'many__tool_9', input: { id: 'a' } });
    assert.deepEqual(
      offer.unwrap({ name: CALL_TOOL, input: { tool: 'x' } }),
      { name: CALL_TOOL, input: { tool: 'x' } },
      'not a call: call_tool itself says what it takes',
    );
    const huge = new ToolOffer(hostOf([...bundled, ...catalog(MAX_API_CATALOG)]), 'api');
    assert.equal(huge.request([]).search, 'host');
  });

  test('a search whose tool is gone goes as text; messages it does not touch stay the same objects', () => {
    const kept: Anthropic.MessageParam = { role: 'user', content: 'hi' };
    const searched: Anthropic.MessageParam = {
      role: 'assistant',
      content: [
        { type: 'server_tool_use', id: 'srv1', name: 'tool_search_tool_bm25', input: { query: 'invoices' } },
        {
          type: 'tool_search_tool_result',
          tool_use_id: 'srv1',
          content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'gone__x' }] },
        },
      ],
    };
    const fitted = fitSearchBlocks([kept, searched], (n) => n !== 'gone__x');
    assert.equal(fitted[0], kept);
    assert.deepEqual(fitted[1]!.content, [
      { type: 'text', text: '[Searched the tools: {"query":"invoices"}]' },
      { type: 'text', text: '[Tools found then: gone__x; search again to use them now]' },
    ]);
    assert.equal(fitSearchBlocks([searched], () => true)[0], searched);
  });
});

describe('what the model is told when tools start to be found by search mid-chat', () => {
  test('tools that move from loaded to deferred are not "no longer available": their servers are named as searchable', () => {
    const small = planTools(hostOf(bundled));
    const before = freezeSystem(small, 'ws', []).tools;
    const grown = planTools(hostOf([...bundled, ...catalog(1000)]));
    const change = toolChangeNote(before, grown);
    assert.equal(change?.note, '[The tool list changed since the start of this chat; found with the tool search tool: the tools of research, many.]');
    assert.ok(toldDeferred(change!.tools));
  });
});
