import { join, resolve } from 'node:path';
import type { ConfigSource } from './definition';

/** The config files a workspace may bring: VS Code's, then Claude Code's project file. */
export function workspaceConfigSources(workspaceFolder: string): ConfigSource[] {
  return [
    { file: join(workspaceFolder, '.vscode', 'mcp.json'), format: 'vscode', origin: 'workspace' },
    { file: join(workspaceFolder, '.mcp.json'), format: 'claude', origin: 'workspace' },
  ];
}

/** A file the person named themselves (`--mcp-config`), in Claude's `mcpServers` format. */
export function userConfigSource(file: string): ConfigSource {
  return { file: resolve(file), format: 'claude', origin: 'user' };
}
