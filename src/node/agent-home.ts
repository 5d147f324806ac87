import { homedir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';

/** MCP Agent's own folder for the person's files: `MCP_AGENT_HOME` or `~/.mcp-agent`. */
export function agentHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.MCP_AGENT_HOME?.trim() || join(homedir(), '.mcp-agent');
}

/**
 * The editor's folders that hold the extension's data (its storage, the editor's secret store, its log), handed by the
 * extension to the servers it starts, separated like PATH: the servers cannot ask the editor where they are.
 */
export const EDITOR_STORAGE_ENV = 'MCP_AGENT_EDITOR_STORAGE';

/**
 * The agent's own data, which code the agent runs must never read, like the person's credential folders: its home
 * (OAuth tokens, every project's chats, sub-agents' sessions) and the editor's storage for the extension (its keys in
 * the editor's secret store, every workspace's checkpoints and pasted images).
 */
export function agentDataFolders(env: NodeJS.ProcessEnv = process.env): string[] {
  const editor = (env[EDITOR_STORAGE_ENV] ?? '').split(delimiter).filter((p) => p !== '' && isAbsolute(p));
  return [agentHome(env), ...editor];
}
