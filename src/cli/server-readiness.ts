import { BUNDLED_SERVER_NAMES } from '../core/mcp/hub/bundled-servers';
import type { McpHub } from '../core/mcp/hub/hub';
import type { ServerConfig } from '../core/mcp/types';

/**
 * How long the first turn waits for the person's own servers once the bundled ones are up. A server
 * that never answers initialize would otherwise hold every run for the whole initialize timeout; one
 * that comes up later still joins: its tools reach the model from its next call on.
 */
export const OWN_SERVERS_GRACE_MS = 5_000;

/** Resolves once the bundled servers have started (or failed) and the others have too, or the grace has passed. */
export async function untilReadyEnough(hub: McpHub, graceMs = OWN_SERVERS_GRACE_MS): Promise<void> {
  const bundled = new Set<string>(BUNDLED_SERVER_NAMES);
  await until(hub, () => hub.statuses().every((s) => !bundled.has(s.name) || s.state !== 'starting'));
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
  await Promise.race([hub.settled(), grace]);
  clearTimeout(timer);
}

/** Each server of a --mcp-config file that is not up, with why: what a one-shot run fails for. */
export function namedServersDown(hub: McpHub, configs: readonly ServerConfig[]): string[] {
  const named = new Set(configs.filter((c) => c.source?.origin === 'user').map((c) => c.name));
  return hub
    .statuses()
    .filter((s) => named.has(s.name) && s.state !== 'ready')
    .map(
      (s) =>
        `server ${s.name} (--mcp-config) never came up: ${s.state === 'error' ? (s.error ?? 'it failed') : `it was still ${s.state}${s.detail ? ` (${s.detail})` : ''} when the run ended`}`,
    );
}

function until(hub: McpHub, done: () => boolean): Promise<void> {
  if (done()) return Promise.resolve();
  return new Promise((resolve) => {
    const off = hub.on('change', () => {
      if (!done()) return;
      off();
      resolve();
    });
  });
}
