import type Anthropic from '@anthropic-ai/sdk';
import type { ChatEvent } from '../../common/protocol';

/** The API's server-side tool search, as the request names it. */
export const API_SEARCH_TOOL: Anthropic.ToolSearchToolBm25_20251119 = { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };
/** The server the chat's card names for the API's search. */
const API_SEARCH_CARD = 'Messages API';

type Block = Anthropic.ContentBlockParam;

/** The tools a search result block loaded. */
function found(block: Anthropic.ToolSearchToolResultBlockParam): string[] {
  return block.content.type === 'tool_search_tool_search_result' ? block.content.tool_references.map((r) => r.tool_name) : [];
}

/**
 * The conversation as this request can carry it. A `tool_reference` must name a tool the request
 * defines, or the API refuses the whole request; one that names a tool gone since (its server stopped,
 * the person turned it off) or a request without the API's search (the host's, after a change of model
 * or base URL) would be refused. Those searches become text the model can still read. Untouched
 * messages are the same objects, so the prefix the cache holds is unchanged.
 */
export function fitSearchBlocks(messages: readonly Anthropic.MessageParam[], defined: (name: string) => boolean): Anthropic.MessageParam[] {
  return messages.map((m) => {
    if (m.role !== 'assistant' || typeof m.content === 'string') return m;
    const stale = new Set(m.content.flatMap((b) => (b.type === 'tool_search_tool_result' && !found(b).every(defined) ? [b.tool_use_id] : [])));
    if (stale.size === 0) return m;
    return { ...m, content: m.content.map((b) => (isSearchBlock(b) && stale.has(searchId(b)) ? { type: 'text' as const, text: searchText(b) } : b)) };
  });
}

function isSearchBlock(b: Block): b is Anthropic.ServerToolUseBlockParam | Anthropic.ToolSearchToolResultBlockParam {
  return b.type === 'tool_search_tool_result' || (b.type === 'server_tool_use' && b.name.startsWith('tool_search_tool'));
}

function searchId(b: Anthropic.ServerToolUseBlockParam | Anthropic.ToolSearchToolResultBlockParam): string {
  return b.type === 'server_tool_use' ? b.id : b.tool_use_id;
}

function searchText(b: Anthropic.ServerToolUseBlockParam | Anthropic.ToolSearchToolResultBlockParam): string {
  if (b.type === 'server_tool_use') return `[Searched the tools: ${JSON.stringify(b.input)}]`;
  const names = found(b);
  return names.length > 0 ? `[Tools found then: ${names.join(', ')}; search again to use them now]` : '[The tool search found nothing]';
}

/** Every search block as text (for a request that carries no tools, such as a compaction summary's). */
export function searchBlocksAsText(messages: readonly Anthropic.MessageParam[]): Anthropic.MessageParam[] {
  return fitSearchBlocks(messages, () => false);
}

/** The API's searches in a reply, as tool cards in the chat: what was asked and what it found. */
export function apiSearchEvents(turnId: string, content: readonly Anthropic.ContentBlock[]): ChatEvent[] {
  const results = new Map(content.flatMap((b) => (b.type === 'tool_search_tool_result' ? [[b.tool_use_id, b] as const] : [])));
  return content.flatMap((b): ChatEvent[] => {
    if (b.type !== 'server_tool_use' || !b.name.startsWith('tool_search_tool')) return [];
    const result = results.get(b.id);
    const names = result?.content.type === 'tool_search_tool_search_result' ? result.content.tool_references.map((r) => r.tool_name) : [];
    const failed = result?.content.type === 'tool_search_tool_result_error' ? result.content.error_code : undefined;
    const text = failed ? `The search failed: ${failed}` : names.length > 0 ? `Loaded: ${names.join(', ')}` : 'Nothing found';
    return [
      { kind: 'tool_call', turnId, callId: b.id, server: API_SEARCH_CARD, tool: b.name, input: (b.input ?? {}) as Record<string, unknown> },
      { kind: 'tool_result', callId: b.id, isError: failed !== undefined, content: [{ type: 'text', text }], durationMs: 0 },
    ];
  });
}
