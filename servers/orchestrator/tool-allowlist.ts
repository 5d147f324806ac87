import type { HubTool } from '../../src/core/mcp/types';

/** The servers a sub-agent can be given: the bundled ones, never the orchestrator itself (no recursion). */
export const SUB_SERVERS = ['workspace', 'web', 'research'] as const;

/** Claude Code's own tool names, so an agent written for Claude Code gets the nearest tools here. */
const CLAUDE_CODE_TOOLS: Record<string, string[]> = {
  Read: ['workspace__read_file'],
  Write: ['workspace__write_file'],
  Edit: ['workspace__edit_file'],
  MultiEdit: ['workspace__edit_file'],
  Glob: ['workspace__search_files'],
  Grep: ['workspace__search_files'],
  LS: ['workspace__list_directory'],
  WebFetch: ['web__fetch_url'],
  WebSearch: ['web__web_search'],
};

/**
 * Which tools a definition's `tools` (and `mcpServers`) offer the sub-agent. Only that: a definition is
 * the workspace's file, so it narrows what is offered and approves nothing (approvals.ts: only the person
 * approves), as `tools` in Claude Code is not a permission either.
 */
export interface ToolAllowList {
  /** Undefined: every tool of the allowed servers. */
  readonly tools: ReadonlySet<string> | undefined;
  readonly servers: ReadonlySet<string>;
  /** Entries that name nothing here, said in words for list_agents. */
  readonly warnings: string[];
}

/**
 * `mcpServers`: the servers named (undefined: the bundled ones); `own`: the definition's own servers,
 * always offered; `known`: every name that can be named (the bundled servers and the person's own).
 */
export function parseAllowList(
  entries: string[] | undefined,
  mcpServers: string[] | undefined,
  own: readonly string[] = [],
  known: readonly string[] = SUB_SERVERS,
): ToolAllowList {
  const warnings: string[] = [];
  const servers = new Set<string>([...(mcpServers === undefined ? SUB_SERVERS : []), ...own]);
  for (const name of mcpServers ?? []) {
    if (known.includes(name)) servers.add(name);
    else warnings.push(`mcpServers: "${name}" is not a server the orchestrator can run (${known.join(', ')}); ignored.`);
  }
  const offered = [...known, ...own];
  if (entries === undefined) return { tools: undefined, servers, warnings };
  const tools = new Set<string>();
  const wholeServers = new Set<string>();
  for (const raw of entries) {
    const entry = raw.trim().replace(/^mcp__/, '');
    const [server, tool] = splitName(entry);
    if (server === 'orchestrator') {
      warnings.push(`tools: "${raw}": sub-agents get no orchestrator tools; ignored.`);
    } else if (CLAUDE_CODE_TOOLS[entry]) {
      for (const name of CLAUDE_CODE_TOOLS[entry]) tools.add(name);
    } else if (!offered.includes(server)) {
      warnings.push(`tools: "${raw}" is neither a server (${offered.join(', ')}) nor a <server>__<tool> name; ignored.`);
    } else if (tool === undefined) {
      wholeServers.add(server);
    } else {
      tools.add(entry);
    }
  }
  for (const server of wholeServers) tools.add(`${server}__*`);
  return { tools, servers, warnings };
}

function splitName(entry: string): [string, string | undefined] {
  const at = entry.indexOf('__');
  return at < 0 ? [entry, undefined] : [entry.slice(0, at), entry.slice(at + 2)];
}

/** True when the list offers `tool` to the sub-agent. */
export function offers(list: ToolAllowList, tool: Pick<HubTool, 'server' | 'qualifiedName'>): boolean {
  if (!list.servers.has(tool.server)) return false;
  if (list.tools === undefined) return true;
  return list.tools.has(tool.qualifiedName) || list.tools.has(`${tool.server}__*`);
}
