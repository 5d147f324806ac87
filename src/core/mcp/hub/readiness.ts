import { BUNDLED_SERVER_NAMES } from './bundled-servers';
import type { ServerStatus } from '../types';

/** What readiness reads of a hub: its servers' states, its changes, and when all have settled. */
export interface ReadinessSource {
  statuses(): ServerStatus[];
  on(event: 'change', listener: () => void): () => void;
  settled(): Promise<void>;
}

/**
 * How long a server the person configured is waited for once it starts (counted from its start, whoever waits:
 * the CLI before its first turn, a turn, a slash command, so it is waited once). A server that never answers
 * initialize would otherwise hold every run for its whole start limit; one that comes up later still joins: its
 * tools reach the model from its next call on.
 */
export const OWN_SERVERS_GRACE_MS = 5_000;

/** How long a server still starting is waited for, from its start: a number of ms, or one per server. */
type Grace = number | ((status: ServerStatus) => number);

/**
 * A one-shot run has no later turn for a late server's tools to join, so each of its own servers is waited for
 * through its first try (the limit it was given to answer initialize), though not through retries.
 */
export const oneShotGrace = (status: ServerStatus): number =>
  status.attempt?.number === 1 ? Math.max(OWN_SERVERS_GRACE_MS, status.attempt.limitMs) : OWN_SERVERS_GRACE_MS;

/**
 * Resolves once the bundled servers have started (or failed) and each other server has too or has had its grace
 * (`grace` from when it began starting), or `signal` aborts (the turn was stopped): what the first turn after a
 * start waits for, so it sees the tools and instructions of servers still starting rather than none.
 */
export async function untilReadyEnough(hub: ReadinessSource, grace: Grace = OWN_SERVERS_GRACE_MS, signal?: AbortSignal): Promise<void> {
  const bundled = new Set<string>(BUNDLED_SERVER_NAMES);
  const stopped = new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
  await Promise.race([until(hub, () => hub.statuses().every((s) => !bundled.has(s.name) || s.state !== 'starting')), stopped]);
  const began = Date.now();
  for (;;) {
    const left = graceLeft(hub.statuses(), grace, Date.now(), began);
    if (left <= 0 || signal?.aborted) return;
    let timer: NodeJS.Timeout | undefined;
    let off: (() => void) | undefined;
    await Promise.race([
      new Promise<void>((resolve) => {
        if (left !== Infinity) timer = setTimeout(resolve, left);
      }),
      new Promise<void>((resolve) => (off = hub.on('change', resolve))),
      stopped,
    ]);
    clearTimeout(timer);
    off?.();
  }
}

/**
 * How long the servers still starting have left of their grace, in ms (0: none is waited for). A server that does
 * not say since when it is starting is counted from `since` (when the wait began). One the person is signing in to
 * has no grace to run out (Infinity): their sign-in has its own limit, and a turn without its tools would be no use.
 */
function graceLeft(statuses: readonly ServerStatus[], grace: Grace, now = Date.now(), since = now): number {
  if (statuses.some((s) => s.state === 'starting' && s.signingIn)) return Infinity;
  const graceOf = typeof grace === 'number' ? () => grace : grace;
  const ends = statuses.filter((s) => s.state === 'starting').map((s) => (s.startingSince ?? since) + graceOf(s));
  return ends.length === 0 ? 0 : Math.max(0, Math.max(...ends) - now);
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
