import type Anthropic from '@anthropic-ai/sdk';
import * as z from 'zod';
import type { CallToolResult, HubTool } from '../mcp/types';
import { HOST_SERVER } from '../agent/resource-tools';
import { rankTools } from './bm25';

/**
 * The host's own tool search, for a model or an API without the server-side one: the model searches
 * with search_tools, gets the best matches with their full definitions, and from the next request on
 * they are sent as ordinary tools (toolsFound() reads which from the conversation, so the same chat
 * sends the same tools after a restart). Its name has no `__`: no server tool can take it.
 */
export const SEARCH_TOOLS = 'search_tools';
const DEFAULT_HITS = 5;
const MAX_HITS = 10;
/** A found tool's heading in the result: what toolsFound() reads back. */
const HEADING = /^## ([a-zA-Z0-9_-]{1,64})$/gm;

const input = z.object({ query: z.string().trim().min(1).max(500), limit: z.number().int().min(1).max(MAX_HITS).optional() }).strict();

/** Its description says nothing that changes (a count of tools would): it sits in the cached prefix. */
export const searchTool: HubTool = {
  qualifiedName: SEARCH_TOOLS,
  server: HOST_SERVER,
  tool: {
    name: SEARCH_TOOLS,
    description:
      'Find tools that are not loaded yet. The connected MCP servers have more tools than are listed here; describe what the tool ' +
      'should do in a few words (or give its server or name), and the best matches come back with their full definitions. ' +
      'They are loaded from then on: call them by name. Search before saying a task cannot be done with the tools you have.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What the tool does, its server or its name, e.g. "create a calendar event".' },
        limit: { type: 'integer', description: `How many tools to return (default ${DEFAULT_HITS}, at most ${MAX_HITS}).` },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
};

/** Runs search_tools over the deferred tools. */
export function searchTools(deferred: readonly HubTool[], args: Record<string, unknown>): CallToolResult {
  const parsed = input.safeParse(args);
  if (!parsed.success) return { isError: true, content: [{ type: 'text', text: `Bad input: ${z.prettifyError(parsed.error)}. Give { "query": "<what the tool does>" }.` }] };
  const { query, limit = DEFAULT_HITS } = parsed.data;
  const hits = rankTools(deferred, query, limit);
  if (hits.length === 0) {
    return { content: [{ type: 'text', text: `No tool matches "${query}". Try other words: what the tool does, its server or part of its name.` }] };
  }
  const found = hits.map((t) => [`## ${t.qualifiedName}`, (t.tool.description ?? '').trim() || '(no description)', `Input schema: ${JSON.stringify(t.tool.inputSchema)}`].join('\n'));
  const head = `${hits.length} tool${hits.length === 1 ? '' : 's'} for "${query}", loaded now: call ${hits.length === 1 ? 'it' : 'them'} by name.`;
  return { content: [{ type: 'text', text: [head, ...found].join('\n\n') }] };
}

/**
 * The deferred tools this conversation has reached, in the order it reached them: the ones its
 * search_tools calls found, and any it called by name. They go with every later request.
 */
export function toolsFound(history: readonly Anthropic.MessageParam[], deferred: readonly HubTool[]): HubTool[] {
  const byName = new Map(deferred.map((t) => [t.qualifiedName, t]));
  const searches = new Set<string>();
  const names: string[] = [];
  for (const m of history) {
    if (typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type === 'tool_use') {
        if (b.name === SEARCH_TOOLS) searches.add(b.id);
        else names.push(b.name);
      } else if (b.type === 'tool_result' && searches.has(b.tool_use_id)) {
        const text = typeof b.content === 'string' ? b.content : (b.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
        for (const hit of text.matchAll(HEADING)) names.push(hit[1]!);
      }
    }
  }
  return [...new Set(names)].flatMap((n) => byName.get(n) ?? []);
}
