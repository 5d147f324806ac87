import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The person's servers as the orchestrator reads them (MCP_AGENT_ORCHESTRATOR_MCP_CONFIG), and what was left out. */
export interface OrchestratorServers {
  /** A file in Claude's `mcpServers` format: the reader the CLI's --mcp-config files go through. */
  text: string;
  /** Names part of the file's own name, so a changed setting is a changed server config (the orchestrator restarts and reads it). */
  digest: string;
  /** Servers left out, with why. */
  left: string[];
}

/**
 * The `mcpAgent.servers` setting (the person's own, user scope only) for the orchestrator, so an
 * agent definition may name one of the person's servers in the extension as it can in the CLI. The
 * two formats share an entry's keys; a server that needs an `${input:…}` answer is left out, since
 * only the window can ask for it (and the answers are secrets the orchestrator is not given).
 */
export function orchestratorServers(setting: unknown): OrchestratorServers | undefined {
  if (!setting || typeof setting !== 'object' || Array.isArray(setting)) return undefined;
  const kept: Record<string, unknown> = {};
  const left: string[] = [];
  for (const [name, entry] of Object.entries(setting as Record<string, unknown>)) {
    if (JSON.stringify(entry ?? null).includes('${input:')) left.push(`${name} (it asks for an input, which only the window can)`);
    else kept[name] = entry;
  }
  if (Object.keys(kept).length === 0) return left.length ? { text: '', digest: '', left } : undefined;
  const text = `${JSON.stringify({ mcpServers: kept }, null, 2)}\n`;
  return { text, digest: createHash('sha256').update(text).digest('hex').slice(0, 16), left };
}

/**
 * Writes the file (readable by the person alone: entries may hold tokens in `env` or `headers`) and
 * removes the ones of earlier settings. Returns its path, or undefined when no server is kept.
 */
export async function writeOrchestratorServers(dir: string, servers: OrchestratorServers | undefined): Promise<string | undefined> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const name = servers?.digest ? `orchestrator-servers-${servers.digest}.json` : undefined;
  for (const old of await readdir(dir)) {
    if (old.startsWith('orchestrator-servers-') && old !== name) await rm(join(dir, old), { force: true });
  }
  if (!name || !servers) return undefined;
  const file = join(dir, name);
  await writeFile(file, servers.text, { mode: 0o600 });
  return file;
}
