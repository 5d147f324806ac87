import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, resolve } from 'node:path';
import { formatDiagnostic } from '../../src/core/mcp/config/diagnostic';
import { loadConfigFiles } from '../../src/core/mcp/config/load';
import { resolveServers } from '../../src/core/mcp/config/resolve';
import { BUNDLED_SERVER_NAMES, PERSON_SERVERS_ENV } from '../../src/core/mcp/hub/bundled-servers';
import type { ServerConfig } from '../../src/core/mcp/types';

export interface PersonServers {
  /** By name: what the hub runs once an agent names one. */
  configs: Map<string, ServerConfig>;
  /** Each problem of the files, as `file:line:column: error: message`. */
  problems: string[];
}

/**
 * The person's own servers, which an agent definition may name: the files in
 * MCP_AGENT_ORCHESTRATOR_MCP_CONFIG (the CLI passes its --mcp-config files on). They were set where the
 * person starts the server, so they start without a question, as --mcp-config's do; nothing starts
 * before an agent that names one runs.
 */
export async function loadPersonServers(workspace: string, env: NodeJS.ProcessEnv = process.env): Promise<PersonServers> {
  const files = personServerFiles(env);
  if (files.length === 0) return { configs: new Map(), problems: [] };
  const loaded = loadConfigFiles(
    files.map((f) => ({ file: resolve(f), format: 'claude' as const, origin: 'user' as const })),
    { workspaceFolder: workspace, userHome: homedir(), env, reservedNames: BUNDLED_SERVER_NAMES },
  );
  const problems = loaded.flatMap((f) => f.diagnostics.map(formatDiagnostic));
  // Claude's format has no inputs, so nothing is asked here.
  const { servers } = await resolveServers(
    loaded.flatMap((f) => f.definitions),
    async () => undefined,
  );
  return { configs: new Map(servers.map((s) => [s.config.name, s.config])), problems };
}

function personServerFiles(env: NodeJS.ProcessEnv): string[] {
  return (env[PERSON_SERVERS_ENV] ?? '')
    .split(delimiter)
    .map((f) => f.trim())
    .filter(Boolean);
}

/**
 * Changes when one of the files does: the extension rewrites its file when the person edits
 * mcpAgent.servers, and the orchestrator reads it again rather than being restarted (which would end
 * its running sessions).
 */
export async function personServersStamp(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const stamps = await Promise.all(
    personServerFiles(env).map(async (f) => {
      const s = await stat(f).catch(() => undefined);
      return s ? `${s.mtimeMs}:${s.size}:${s.ino}` : 'missing';
    }),
  );
  return stamps.join('|');
}
