import { BUNDLED_SERVER_NAMES } from './bundled-servers';
import type { ServerStatus } from '../types';

/** What readiness reads of a hub: its servers' states, its changes, and when all have settled. */
export interface ReadinessSource {
  statuses(): ServerStatus[];
  on(event: 'change', listener: () => void): () => void;
  settled(): Promise<void>;
}

/**
 * How long a turn waits for the person's own servers once the bundled ones are up. A server that never answers
 * initialize would otherwise hold every run for the whole initialize timeout; one that comes up later still
 * joins: its tools reach the model from its next call on.
 */
export const OWN_SERVERS_GRACE_MS = 5_000;

/**
 * Resolves once the bundled servers have started (or failed) and the others have too, or the grace has passed,
 * or `signal` aborts (the turn was stopped): what the first turn after a start waits for, so it sees the tools
 * and instructions of servers still starting rather than none.
 */
export async function untilReadyEnough(hub: ReadinessSource, graceMs = OWN_SERVERS_GRACE_MS, signal?: AbortSignal): Promise<void> {
  const bundled = new Set<string>(BUNDLED_SERVER_NAMES);
  const stopped = new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
  await Promise.race([until(hub, () => hub.statuses().every((s) => !bundled.has(s.name) || s.state !== 'starting')), stopped]);
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
  await Promise.race([hub.settled(), grace, stopped]);
  clearTimeout(timer);
}

/** Resolves once `server` is no longer starting (ready, failed or stopped): a command run right after a start waits for it. */
export function untilStarted(hub: ReadinessSource, server: string): Promise<void> {
  return until(hub, () => hub.statuses().find((s) => s.name === server)?.state !== 'starting');
}

/** The servers still starting, by name. */
export function startingServers(statuses: readonly ServerStatus[]): string[] {
  return statuses.filter((s) => s.state === 'starting').map((s) => s.name);
}

function until(hub: ReadinessSource, done: () => boolean): Promise<void> {
  if (done()) return Promise.resolve();
  return new Promise((resolve) => {
    const off = hub.on('change', () => {
      if (!done()) return;
      off();
      resolve();
    });
  });
}
