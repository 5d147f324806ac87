import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { StdioServerConfig } from './types';

/** The servers the extension ships, in the order they are shown. */
export const BUNDLED_SERVER_NAMES = ['workspace', 'web', 'research', 'orchestrator'] as const;

/**
 * Stdio configs for the bundled servers whose bundle exists:
 * `<node> <distDir>/servers/<name>.js <workspace>`. The command is process.execPath, which in the
 * extension host is VS Code's Electron binary: ELECTRON_RUN_AS_NODE=1 makes it behave as plain
 * Node (and is ignored by Node itself, so the same configs work from the CLI).
 * `env` is added to the small default environment the host passes (PATH, HOME, …): put API keys
 * and base-URL overrides there.
 */
export function bundledServerConfigs(distDir: string, workspace: string, env: Record<string, string>): StdioServerConfig[] {
  return BUNDLED_SERVER_NAMES.map((name) => ({ name, script: join(distDir, 'servers', `${name}.js`) }))
    .filter(({ script }) => existsSync(script))
    .map(({ name, script }) => ({
      name,
      transport: 'stdio' as const,
      command: process.execPath,
      args: [script, workspace],
      env: { ...env, ELECTRON_RUN_AS_NODE: '1' },
      cwd: workspace,
    }));
}

/** The variables of the host's environment that the bundled servers are meant to see. */
const PASSED_TO_SERVERS = /^(ARXIV_API_URL|BRAVE_SEARCH_URL|BRAVE_API_KEY|WEATHER_API_URL|ESPN_API_URL|MCP_AGENT_[A-Z0-9_]+|LANG|LC_[A-Z]+|TMPDIR|PYTHONPATH|VIRTUAL_ENV)$/;

/** Picks what the bundled servers need from an environment; API keys for Anthropic never pass. */
export function bundledServerEnv(source: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && PASSED_TO_SERVERS.test(key)) env[key] = value;
  }
  return env;
}
