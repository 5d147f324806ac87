import { relative } from 'node:path';
import type { ServerStatus } from '../../core/mcp/types';
import type { OwnServer, OwnSource } from '../../core/mcp/config/own-servers';
import { isSettingSource } from '../../core/mcp/config/own-server-sources';

/** A heading of the Tools view: the bundled servers, the setting, or one config file. */
export interface ServerGroup {
  id: string;
  label: string;
  kind: 'bundled' | 'setting' | 'file';
  /** Absent for the bundled servers. */
  source?: OwnSource;
}

/** The groups worth a heading: bundled, then each source that defines a server or has a problem. */
export function serverGroups(statuses: readonly ServerStatus[], sources: readonly OwnSource[]): ServerGroup[] {
  const shown = sources.filter((s) => s.servers.length > 0 || s.diagnostics.length > 0);
  const groups: ServerGroup[] = [];
  if (bundledStatuses(statuses, sources).length > 0) groups.push({ id: 'bundled', label: 'Bundled', kind: 'bundled' });
  for (const source of shown) {
    groups.push({ id: source.source.file, label: source.label, kind: isSettingSource(source.source) ? 'setting' : 'file', source });
  }
  return groups;
}

/** The hub's servers that no config source defines. */
export function bundledStatuses(statuses: readonly ServerStatus[], sources: readonly OwnSource[]): ServerStatus[] {
  const own = new Set(sources.flatMap((s) => s.servers.map((o) => o.definition.name)));
  return statuses.filter((s) => !own.has(s.name));
}

/** "the file /w/.vscode/mcp.json" or "the mcpAgent.servers setting", for tooltips. */
export function fromText(server: OwnServer, workspace: string | undefined): string {
  const { source } = server.definition;
  if (isSettingSource(source)) return 'the mcpAgent.servers setting (your user settings)';
  const shown = workspace ? relative(workspace, source.file) : source.file;
  return `${shown}, line ${server.definition.position.line} ("${server.definition.key}")`;
}
