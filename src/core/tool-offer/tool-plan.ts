import type Anthropic from '@anthropic-ai/sdk';
import type { HubTool } from '../mcp/types';
import type { ToolHost } from '../agent/types';
import { estimateTokens } from '../agent/compaction';
import { HOST_SERVER } from '../agent/resource-tools';

/**
 * Past this many tokens of tool definitions, only some go with each request and the rest are found
 * by search. A number of tokens, not tools, because tokens are what a request pays for and what
 * crowds the model's context, and one tool may cost 60 tokens where another costs 1,000. Not a share
 * of the model's window: windows are 200k to 1M tokens now, and 10 % of 1M (Claude Code's "auto") would
 * send a 1,000-tool catalogue whole on every call, while the price per request and the model's choice
 * among too many tools do not get better with the window. 8,000 is twice the bundled servers' ~4,000,
 * so they alone never defer; it is about 50 tools of typical size, where Anthropic reports that
 * picking the right tool starts to get worse (30–50 tools); and below it one more model call to search
 * costs more than the definitions it saves.
 */
export const DEFINITION_BUDGET_TOKENS = 8_000;

/**
 * The bundled tools most chats use (files, code, databases, the web): when the rest are deferred they
 * stay loaded, so everyday work needs no search. About 1,900 tokens.
 */
export const CORE_TOOLS: ReadonlySet<string> = new Set([
  'workspace__read_file',
  'workspace__list_directory',
  'workspace__search_files',
  'workspace__write_file',
  'workspace__edit_file',
  'workspace__run_code',
  'workspace__query_database',
  'web__fetch_url',
  'web__web_search',
]);

/** What the model is offered: every tool, those sent in full with each request, and those found by search. */
export interface ToolPlan {
  all: HubTool[];
  loaded: HubTool[];
  /** Empty while every definition fits the budget. */
  deferred: HubTool[];
}

/** A tool as the Messages API takes it. */
export function definitionOf(t: HubTool): Anthropic.Tool {
  return { name: t.qualifiedName, description: t.tool.description ?? '', input_schema: t.tool.inputSchema as Anthropic.Tool.InputSchema };
}

/** Each tool's cost, kept while the hub keeps the tool (a plan is made for every request, over thousands of tools). */
const costs = new WeakMap<HubTool, number>();

/** What sending these definitions costs, in tokens (estimated as the API counts, four characters a token). */
export function definitionTokens(tools: readonly HubTool[]): number {
  let n = 0;
  for (const t of tools) {
    let cost = costs.get(t);
    if (cost === undefined) costs.set(t, (cost = estimateTokens(definitionOf(t))));
    n += cost;
  }
  return n;
}

/**
 * Within the budget, every tool is loaded. Past it, the core bundled tools, the host's own (resource
 * tools) and the ones the person pinned stay loaded, and every other tool is deferred: found by
 * search, never dropped.
 */
export function planTools(host: Pick<ToolHost, 'tools' | 'pinned'>): ToolPlan {
  const all = host.tools();
  if (definitionTokens(all) <= DEFINITION_BUDGET_TOKENS) return { all, loaded: all, deferred: [] };
  const keep = (t: HubTool): boolean => CORE_TOOLS.has(t.qualifiedName) || t.server === HOST_SERVER || host.pinned?.(t) === true;
  return { all, loaded: all.filter(keep), deferred: all.filter((t) => !keep(t)) };
}

/** The servers' tools of a plan (the host's own left out): what the person counts as "tools". */
function serverTools(tools: readonly HubTool[]): HubTool[] {
  return tools.filter((t) => t.server !== HOST_SERVER);
}

/** "1,022 tools from 4 servers: 24 loaded, the rest found by search" (all loaded: "22 tools from 4 servers, all loaded"). */
export function planSummary(plan: ToolPlan): string {
  const all = serverTools(plan.all);
  const servers = new Set(all.map((t) => t.server)).size;
  const head = `${count(all.length, 'tool')} from ${count(servers, 'server')}`;
  if (plan.deferred.length === 0) return `${head}, all loaded`;
  return `${head}: ${serverTools(plan.loaded).length.toLocaleString('en-US')} loaded, the rest found by search`;
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}
