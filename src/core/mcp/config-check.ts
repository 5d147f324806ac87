import type { ServerConfig, StdioServerConfig } from './types';

/** Why a config cannot be started, before anything is spawned (spawn would throw at once). */
export function configProblem(config: ServerConfig): string | undefined {
  const transport = (config as { transport?: unknown }).transport;
  if (transport === 'http' || transport === 'sse') {
    const url = (config as { url?: unknown }).url;
    // Loaded and listed so the person sees it, but the host has no HTTP client session yet.
    return `HTTP servers are not supported yet (transport "${transport}"${typeof url === 'string' ? `, ${url}` : ''}); only stdio servers start for now`;
  }
  if (transport !== 'stdio') return `transport "${String(transport)}" is not supported here (only stdio)`;
  const c = config as Partial<StdioServerConfig>;
  if (typeof c.command !== 'string' || c.command.trim() === '') return 'the config has no command to run';
  const strings = [c.command, ...(c.args ?? []), ...Object.entries(c.env ?? {}).flat(), c.cwd ?? ''];
  if (strings.some((v) => typeof v !== 'string')) return 'every argument and environment value must be a string';
  if (strings.some((v) => v.includes('\0'))) return 'the command, an argument or an environment value holds a NUL byte, which no program can be given';
  return undefined;
}
