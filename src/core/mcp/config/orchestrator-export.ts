import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The person's servers as the orchestrator reads them (MCP_AGENT_ORCHESTRATOR_MCP_CONFIG), and what was left out. */
export interface OrchestratorServers {
  /** A file in Claude's `mcpServers` format: the reader the CLI's --mcp-config files go through. */
  text: string;
  /** Servers left out, with why. */
  left: string[];
}

/**
 * The `mcpAgent.servers` setting (the person's own, user scope only) for the orchestrator, so an
 * agent definition may name one of the person's servers in the extension as it can in the CLI. The
 * two formats share an entry's keys; a server that needs an `${input:…}` answer is left out, since
 * only the window can ask for it (and the answers are secrets the orchestrator is not given).
 */
export function orchestratorServers(setting: unknown): OrchestratorServers {
  const kept: Record<string, unknown> = {};
  const left: string[] = [];
  if (setting && typeof setting === 'object' && !Array.isArray(setting)) {
    for (const [name, entry] of Object.entries(setting as Record<string, unknown>)) {
      if (JSON.stringify(entry ?? null).includes('${input:')) left.push(`${name} (it asks for an input, which only the window can)`);
      else kept[name] = entry;
    }
  }
  return { text: `${JSON.stringify({ mcpServers: kept }, null, 2)}\n`, left };
}

/**
 * Writes the file, readable by the person alone (entries may hold tokens in `env` or `headers`), at
 * one path for good: the orchestrator's environment never changes with the setting (a changed
 * environment would restart it and end its running sessions); it reads the file again when it changed.
 */
export async function writeOrchestratorServers(dir: string, servers: OrchestratorServers): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'orchestrator-servers.json');
  const old = await readFile(file, 'utf8').catch(() => undefined);
  if (old === servers.text) return file;
  // Whole or not at all: the orchestrator may be reading it right now.
  const part = `${file}.${process.pid}.part`;
  await writeFile(part, servers.text, { mode: 0o600 });
  await rename(part, file);
  return file;
}
