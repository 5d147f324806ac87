import * as z from 'zod';
import type { CallToolResult, HubTool } from '../mcp/types';
import { HOST_SERVER } from '../agent/resource-tools';
import { rankTools } from './bm25';

/**
 * The host's own tool search, for a model or an API without the server-side one: the model searches
 * with search_tools, gets the best matches with their full definitions, and calls one through call_tool.
 * Sending what was found as tools of their own would change the request's tools, which come first in
 * the prompt, and so rewrite the whole cached conversation at every find (bench/README.md, `tools`); the
 * two tools never change. Their names
 * have no `__`: no server tool can take them.
 */
export const SEARCH_TOOLS = 'search_tools';
export const CALL_TOOL = 'call_tool';
const DEFAULT_HITS = 5;
const MAX_HITS = 10;

const input = z.object({ query: z.string().trim().min(1).max(500), limit: z.number().int().min(1).max(MAX_HITS).optional() }).strict();
const callInput = z.object({ name: z.string().min(1).max(64), arguments: z.record(z.string(), z.unknown()).optional() }).strict();

/** Its description says nothing that changes (a count of tools would): it sits in the cached prefix. */
export const searchTool: HubTool = {
  qualifiedName: SEARCH_TOOLS,
  server: HOST_SERVER,
  tool: {
    name: SEARCH_TOOLS,
    description:
      'Find tools that are not loaded yet. The connected MCP servers have more tools than are listed here; describe what the tool ' +
      'should do in a few words (or give its server or name), and the best matches come back with their full definitions; ' +
      `call one with ${CALL_TOOL}. Search before saying a task cannot be done with the tools you have.`,
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

/** Its description, like search_tools', never changes. */
export const callTool: HubTool = {
  qualifiedName: CALL_TOOL,
  server: HOST_SERVER,
  tool: {
    name: CALL_TOOL,
    description: `Call a tool that ${SEARCH_TOOLS} found, by its name, with arguments that follow the input schema it gave. It runs as if called directly (the same approvals).`,
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The tool, as search_tools named it (server__tool).' },
        arguments: { type: 'object', description: "The tool's input." },
      },
      required: ['name'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
};

/** The call a call_tool use stands for; undefined when its input is not one (the tool then says what it takes). */
export function innerCall(input: unknown): { name: string; input: Record<string, unknown> } | undefined {
  const parsed = callInput.safeParse(input);
  return parsed.success ? { name: parsed.data.name, input: parsed.data.arguments ?? {} } : undefined;
}

/** What call_tool answers when it is called itself: only when its input was not a call. */
export function badCall(args: Record<string, unknown>): CallToolResult {
  const parsed = callInput.safeParse(args);
  const why = parsed.success ? 'it names no tool' : z.prettifyError(parsed.error);
  return { isError: true, content: [{ type: 'text', text: `Bad input: ${why}. Give { "name": "<server__tool>", "arguments": { ... } }.` }] };
}

/** Runs search_tools over the deferred tools. */
export function searchTools(deferred: readonly HubTool[], args: Record<string, unknown>): CallToolResult {
  const parsed = input.safeParse(args);
  if (!parsed.success)
    return { isError: true, content: [{ type: 'text', text: `Bad input: ${z.prettifyError(parsed.error)}. Give { "query": "<what the tool does>" }.` }] };
  const { query, limit = DEFAULT_HITS } = parsed.data;
  const hits = rankTools(deferred, query, limit);
  if (hits.length === 0) {
    return { content: [{ type: 'text', text: `No tool matches "${query}". Try other words: what the tool does, its server or part of its name.` }] };
  }
  const found = hits.map((t) =>
    [`## ${t.qualifiedName}`, (t.tool.description ?? '').trim() || '(no description)', `Input schema: ${JSON.stringify(t.tool.inputSchema)}`].join('\n'),
  );
  const head = `${hits.length} tool${hits.length === 1 ? '' : 's'} for "${query}": call ${hits.length === 1 ? 'it' : 'one'} with ${CALL_TOOL} { "name": "<its name>", "arguments": { ... } }.`;
  return { content: [{ type: 'text', text: [head, ...found].join('\n\n') }] };
}
