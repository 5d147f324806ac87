import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** A change a client may listen for: a list, or one resource (the 2026-07-28 era's subscriptions/listen events). */
export type Change = { kind: 'resources_list_changed' } | { kind: 'resource_updated'; uri: string };

type Listener = (change: Change) => void;

/** One map per process, though this module is in two bundles (the server's and modern-era.js): a global symbol's. */
const feeds = ((globalThis as Record<symbol, unknown>)[Symbol.for('mcp-agent/change-feed')] ??= new WeakMap<McpServer, Set<Listener>>()) as WeakMap<
  McpServer,
  Set<Listener>
>;

/**
 * Hears every change `server` announces, for the 2026-07-28 side (modern-bridge.ts), whose clients are told on
 * their subscriptions/listen streams rather than on a session. Returns what stops hearing them.
 */
export function onChange(server: McpServer, listener: Listener): () => void {
  let set = feeds.get(server);
  if (!set) feeds.set(server, (set = new Set()));
  set.add(listener);
  return () => void set.delete(listener);
}

/** Whether a 2026-07-28 side hears `server`'s changes (so an update nobody subscribed to on a session still counts). */
export function isHeard(server: McpServer): boolean {
  return (feeds.get(server)?.size ?? 0) > 0;
}

/** A resource came or went: said on the 2025-11-25 session (when one is open) and to every 2026-07-28 listener. */
export function resourceListChanged(server: McpServer): void {
  server.sendResourceListChanged();
  emit(server, { kind: 'resources_list_changed' });
}

/**
 * A resource changed: said on the 2025-11-25 session when its client subscribed to it (`subscribed`), and to every
 * 2026-07-28 listener (their streams filter by the URIs each asked for).
 */
export function resourceUpdated(server: McpServer, uri: string, subscribed: boolean): void {
  if (subscribed && server.isConnected()) server.server.sendResourceUpdated({ uri }).catch(() => undefined);
  emit(server, { kind: 'resource_updated', uri });
}

function emit(server: McpServer, change: Change): void {
  for (const listener of feeds.get(server) ?? []) {
    try {
      listener(change);
    } catch {
      // A listener that fails must not fail the work that changed something.
    }
  }
}
