import type { McpHub } from '../core/mcp/hub/hub';
import type { ServerConfig } from '../core/mcp/types';

export { oneShotGrace, untilReadyEnough } from '../core/mcp/hub/readiness';

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
