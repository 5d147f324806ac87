import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { bundledServerConfigs, bundledServerEnv, type BundledServerName } from './bundled-servers';

/**
 * The bundled servers offered to another MCP host (VS Code's own): not the orchestrator, whose sub-agents spend the
 * person's Anthropic key and ask their approvals through this extension's chat.
 */
const OFFERED_SERVER_NAMES = ['workspace', 'web', 'research'] as const satisfies readonly BundledServerName[];

/** Keys a server gets only when that host starts it: a definition is kept by the host between sessions. */
const KEYS = /^(BRAVE_API_KEY|ANTHROPIC_API_KEY)$/;

export interface OfferedServer {
  name: (typeof OFFERED_SERVER_NAMES)[number];
  /** What that host shows in its server list. */
  label: string;
  command: string;
  args: string[];
  cwd: string;
  /**
   * Laid over that host's own environment, which the server would otherwise inherit whole: a variable set to
   * null is removed, so the server sees what this extension's host gives it (its share, on the small default).
   */
  env: Record<string, string | null>;
}

/**
 * The bundled servers as another host on this machine would start them: the same `node dist/servers/<name>.js
 * <workspace>` this extension runs, with no key in them (keysFor adds a server's own when it starts).
 * `hostEnv` is the environment that host passes down (the extension host's).
 */
export function offeredServers(distDir: string, workspace: string, hostEnv: NodeJS.ProcessEnv): OfferedServer[] {
  const withoutKeys = Object.fromEntries(Object.entries(hostEnv).filter(([key]) => !KEYS.test(key)));
  const kept = new Set(Object.keys(getDefaultEnvironment()));
  const offered = new Set<string>(OFFERED_SERVER_NAMES);
  return bundledServerConfigs(distDir, workspace, withoutKeys)
    .filter((c) => offered.has(c.name))
    .map((c) => {
      const env: Record<string, string | null> = {};
      for (const key of Object.keys(hostEnv)) if (!kept.has(key)) env[key] = null;
      Object.assign(env, c.env);
      return { name: c.name as OfferedServer['name'], label: `MCP Agent: ${c.name}`, command: c.command, args: c.args, cwd: c.cwd ?? workspace, env };
    });
}

/** The keys one offered server takes from `source` (the person's environment and secret storage), added as it starts. */
export function keysFor(name: OfferedServer['name'], source: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(bundledServerEnv(name, source)).filter(([key]) => KEYS.test(key)));
}
