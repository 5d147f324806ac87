import type { ServerConfig, StdioServerConfig } from './types';

/** Why a config cannot be started over stdio, before anything is spawned (spawn would throw at once). */
export function configProblem(config: ServerConfig): string | undefined {
  const c = config as Partial<StdioServerConfig> & { transport?: unknown };
  if (c.transport !== 'stdio') return `transport "${String(c.transport)}" is not supported here (only stdio)`;
  if (typeof c.command !== 'string' || c.command.trim() === '') return 'the config has no command to run';
  const strings = [c.command, ...(c.args ?? []), ...Object.entries(c.env ?? {}).flat(), c.cwd ?? ''];
  if (strings.some((v) => typeof v !== 'string')) return 'every argument and environment value must be a string';
  if (strings.some((v) => v.includes('\0'))) return 'the command, an argument or an environment value holds a NUL byte, which no program can be given';
  return undefined;
}
