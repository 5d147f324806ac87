/** What the MCP host tests share: where the fake servers are, configs for them, small waits. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { McpHub, type HubOptions } from '../../src/core/mcp/hub/hub';
import type { ServerConfig, ServerStatus } from '../../src/core/mcp/types';
export { repoRoot } from '../support/repo-root';
import { repoRoot } from '../support/repo-root';
import { until } from '../support/until';

/** A built fake from test/fakes (esbuild.mjs puts them in out/test/fakes). */
export function fake(name: string): string {
  const file = join(repoRoot(), 'out', 'test', 'fakes', `${name}.js`);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`node esbuild.mjs\` first`);
  return file;
}

export function fakeConfig(name: string, script: string, ...args: string[]): ServerConfig {
  return { name, transport: 'stdio', command: process.execPath, args: [fake(script), ...args] };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves with the server's status once `ok` holds (checked now and on every 'change'). A wait that does not end
 * fails after 60 s (scaled) saying where the server stands and what it printed, instead of a bare "cancelled" at the
 * suite's timeout.
 */
export function waitForStatus(hub: McpHub, name: string, ok: (s: ServerStatus) => boolean): Promise<ServerStatus> {
  return until(
    () => {
      const s = hub.status(name);
      return s && ok(s) ? s : undefined;
    },
    {
      what: `${name} to reach the status asked for`,
      timeoutMs: 60_000,
      wake: (check) => hub.on('change', check),
      seen: () => {
        const s = hub.status(name);
        return `${s ? `${s.state}${s.error ? ` (${s.error})` : ''}` : 'not in the hub'}; stderr: ${JSON.stringify(hub.stderr(name, 1000))}`;
      },
    },
  );
}

export function textOf(result: { content: unknown[] }): string {
  return result.content.map((c) => (c as { text?: string }).text ?? '').join('');
}

/** Runs `body` with a started hub of `configs`, and always disposes of it (every process gone) after. */
export async function withHub(configs: ServerConfig[], options: HubOptions, body: (hub: McpHub) => Promise<void>): Promise<void> {
  const hub = new McpHub(configs, options);
  hub.start();
  try {
    await body(hub);
  } finally {
    await hub.dispose();
  }
}
