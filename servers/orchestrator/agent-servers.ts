import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ServerDefinition } from '../../src/core/mcp/config/definition';
import { formatDiagnostic } from '../../src/core/mcp/config/diagnostic';
import { nameDefinitions, parseConfigText } from '../../src/core/mcp/config/load';

/** What a definition's `mcpServers` asks for: servers by name, and servers of its own. */
export interface AgentServers {
  /** Names as written: a bundled server or one of the person's own. */
  named: string[];
  /** Its own servers, read as a workspace's `.mcp.json` is: they start only after the person agreed. */
  inline: ServerDefinition[];
  /** What could not be read, said in words for list_agents. */
  problems: string[];
}

/**
 * Reads `mcpServers` in each shape a definition may use: a name or a comma-separated list of names,
 * Claude Code's list of names and `{ name: config }` entries, or the usual `mcpServers` map of
 * `.mcp.json` (`{ name: { command, args, env } }`, `type: http|sse` with `url`). Inline servers are
 * named so they never take a bundled server's or the person's own server's name (`github-2`).
 */
export function readAgentServers(value: unknown, file: { workspace: string; path: string }, reserved: readonly string[], env: NodeJS.ProcessEnv): AgentServers {
  const named: string[] = [];
  const map: Record<string, unknown> = {};
  const problems: string[] = [];
  const add = (entry: unknown): void => {
    if (typeof entry === 'string')
      named.push(
        ...entry
          .split(',')
          .map((n) => n.trim())
          .filter(Boolean),
      );
    else if (entry && typeof entry === 'object' && !Array.isArray(entry)) Object.assign(map, entry);
    else problems.push(`mcpServers: ${JSON.stringify(entry)} is neither a server name nor a { name: config } entry; ignored.`);
  };
  if (Array.isArray(value)) value.forEach(add);
  else if (value !== undefined && value !== null) add(value);
  if (Object.keys(map).length === 0) return { named, inline: [], problems };

  const source = { file: join(file.workspace, file.path), format: 'claude' as const, origin: 'workspace' as const };
  const parsed = parseConfigText(source, JSON.stringify({ mcpServers: map }, null, 2), { workspaceFolder: file.workspace, userHome: homedir(), env });
  // Positions are those of the JSON made here, not of the YAML: the message names the server instead.
  for (const d of parsed.diagnostics) problems.push(`mcpServers: ${formatDiagnostic({ ...d, file: file.path, line: undefined, column: undefined })}`);
  const [named_] = nameDefinitions([{ definitions: parsed.definitions }], reserved);
  return { named, inline: named_?.definitions ?? [], problems };
}
