import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ConfigSource, ServerDefinition } from './definition';
import type { ConfigDiagnostic } from './diagnostic';
import { nameDefinitions, parseConfigFile, parseConfigText, type LoadContext } from './load';

/** The `file` of the `mcpAgent.servers` setting's source: not a path, so nothing is ever read from or written to it. */
export const SETTING_FILE = 'mcpAgent.servers';

/** One place servers are defined, read: its servers named across every source, and what is wrong in it. */
export interface ReadSource {
  source: ConfigSource;
  /** Shown as the group's title in the Tools view. */
  label: string;
  found: boolean;
  definitions: ServerDefinition[];
  diagnostics: ConfigDiagnostic[];
}

export function isSettingSource(source: ConfigSource): boolean {
  return source.file === SETTING_FILE;
}

/**
 * Every place the window's own servers come from, in order: the `mcpAgent.servers` setting, each
 * workspace folder's `.vscode/mcp.json` (its `${workspaceFolder}` is that folder), then `.mcp.json` at
 * the root (the first folder). Names are made unique across all of them and the bundled servers, as
 * the CLI does, so a server's name depends only on the definitions.
 */
export function readOwnSources(folders: readonly string[], setting: unknown, env: NodeJS.ProcessEnv): ReadSource[] {
  const userHome = homedir();
  const ctx = (folder: string): LoadContext => ({ workspaceFolder: folder, userHome, env });
  const root = folders[0];
  const read: Array<Omit<ReadSource, 'definitions'> & { definitions: ReturnType<typeof parseConfigText>['definitions'] }> = [];
  if (setting !== undefined && setting !== null) {
    const source: ConfigSource = { file: SETTING_FILE, format: 'vscode', origin: 'user' };
    // The setting holds `servers` only; written out as a file so the same reader (and its messages) apply.
    const parsed = parseConfigText(source, JSON.stringify({ servers: setting }, null, 2), ctx(root ?? userHome));
    read.push({ source, label: 'Settings (mcpAgent.servers)', found: true, ...parsed });
  }
  for (const folder of folders) {
    const source: ConfigSource = { file: join(folder, '.vscode', 'mcp.json'), format: 'vscode', origin: 'workspace' };
    const label = folders.length > 1 ? `${folder.split(/[\\/]/).pop()}/.vscode/mcp.json` : '.vscode/mcp.json';
    read.push({ label, ...parseConfigFile(source, ctx(folder)) });
  }
  if (root) read.push({ label: '.mcp.json', ...parseConfigFile({ file: join(root, '.mcp.json'), format: 'claude', origin: 'workspace' }, ctx(root)) });
  return nameDefinitions(read);
}
