import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { StdioServerConfig } from '../types';
import { agentHome } from '../../chat/chat-home';

/** The servers the extension ships, in the order they are shown. */
export const BUNDLED_SERVER_NAMES = ['workspace', 'web', 'research', 'orchestrator'] as const;

export type BundledServerName = (typeof BUNDLED_SERVER_NAMES)[number];

/**
 * Stdio configs for the bundled servers whose bundle exists (each in the era the host negotiates and remembers,
 * era-memory.ts: 2026-07-28, whose side of theirs carries what 2025-11-25 does; servers/lib/modern-bridge.ts, and
 * for the orchestrator's approvals asked in the middle of a sub-agent's turn, servers/lib/modern-continuation.ts):
 * `<node> <distDir>/servers/<name>.js <workspace>`. The command is process.execPath, which in the
 * extension host is VS Code's Electron binary: ELECTRON_RUN_AS_NODE=1 makes it behave as plain
 * Node (and is ignored by Node itself, so the same configs work from the CLI).
 * `source` is the environment to pick from (the host's, plus keys from secret storage): each server gets
 * only its share of it (bundledServerEnv), on top of the small default environment the host passes.
 */
export function bundledServerConfigs(distDir: string, workspace: string, source: NodeJS.ProcessEnv): StdioServerConfig[] {
  return BUNDLED_SERVER_NAMES.map((name) => ({ name, script: join(distDir, 'servers', `${name}.js`) }))
    .filter(({ script }) => existsSync(script))
    .map(({ name, script }) => ({
      name,
      transport: 'stdio' as const,
      command: process.execPath,
      args: [script, workspace],
      env: { ...bundledServerEnv(name, source), NODE_COMPILE_CACHE: compileCacheDir(source), ELECTRON_RUN_AS_NODE: '1' },
      cwd: workspace,
    }));
}

/**
 * Where a bundled server's Node keeps the code it compiled, for its next start: Node 22.1 and later (desktop VS
 * Code's since 1.101, the CLI's) read NODE_COMPILE_CACHE and start each server sooner, in either era (bench/README.md,
 * `eras`); Node 20 ignores it. In the person's own MCP Agent folder, not the shared temp folder Node picks by
 * default, where another user could plant what a server would run. The person's own setting wins.
 */
function compileCacheDir(source: NodeJS.ProcessEnv): string {
  return source.NODE_COMPILE_CACHE || join(agentHome(source), 'compile-cache');
}

/**
 * The person's own MCP config files (Claude's format, separated like PATH) whose servers the orchestrator's
 * sub-agents may name: set where the person starts it, or handed on by the CLI from its --mcp-config files.
 */
export const PERSON_SERVERS_ENV = 'MCP_AGENT_ORCHESTRATOR_MCP_CONFIG';

/**
 * Settings every bundled server may read: locale, temp folder and the project's own non-secret knobs (not the HTTP
 * token, nor the key that signs a 2026-07-28 call's state between its rounds, which only --http servers use).
 */
const FOR_EVERY_SERVER = /^(MCP_AGENT_(?!HTTP_TOKEN$|REQUEST_STATE_KEY$|ORCHESTRATOR_MCP_CONFIG$)[A-Z0-9_]+|LANG|LC_[A-Z]+|TMPDIR)$/;

const WORKSPACE_ONLY = /^(PYTHONPATH|VIRTUAL_ENV)$/;
const WEB_ONLY = /^(BRAVE_API_KEY|BRAVE_SEARCH_URL|WEATHER_API_URL|ESPN_API_URL)$/;
const RESEARCH_ONLY = /^ARXIV_API_URL$/;
/** The Anthropic key and endpoint, the claude-agent seed's CLAUDE_* settings of its query tool, and the person's servers for sub-agents. */
const ORCHESTRATOR_ONLY = /^(ANTHROPIC_API_KEY|ANTHROPIC_BASE_URL|CLAUDE_[A-Z0-9_]+|MCP_AGENT_ORCHESTRATOR_MCP_CONFIG)$/;

/** Keys and upstream addresses go only to the server that uses them: a key is never where it is not needed. */
const FOR_ONE_SERVER: Record<BundledServerName, RegExp> = {
  workspace: WORKSPACE_ONLY,
  web: WEB_ONLY,
  research: RESEARCH_ONLY,
  // It alone takes the Anthropic key (it runs the sub-agents), plus what the servers it starts for them need:
  // it hands each of those only its own share again.
  orchestrator: new RegExp([ORCHESTRATOR_ONLY, WORKSPACE_ONLY, WEB_ONLY, RESEARCH_ONLY].map((r) => `(?:${r.source})`).join('|')),
};

/** What one bundled server sees of an environment; nothing else of it (tokens, other keys) passes. */
export function bundledServerEnv(name: BundledServerName, source: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && (FOR_EVERY_SERVER.test(key) || FOR_ONE_SERVER[name].test(key))) env[key] = value;
  }
  return env;
}
