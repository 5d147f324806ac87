import type { DiscoverResult, PriorDiscovery } from '@modelcontextprotocol/client';
import { McpStartError } from '../session/errors';
import type { ServerConfig } from '../types';
import { eraKey, priorOf, type EraMemory, type ProtocolEra } from './era-memory';
import { refusedEra } from './request-meta';

/** How a connection opens and ends its session, as the era choice needs it (connection.ts). */
export interface EraOpener {
  /** Opens a session in `prior`'s era, or asks the server's (server/discover, else initialize) when undefined. */
  open(prior: PriorDiscovery | undefined): Promise<void>;
  /** Whether the open session answered nothing: every list it declares failed. */
  answeredNothing(): boolean;
  /** Ends a session opened in the wrong era, so another can open in its place. */
  reopen(): Promise<void>;
  /** The open session's era, and its server/discover result in 2026-07-28. */
  opened(): { era: ProtocolEra | undefined; discover: DiscoverResult | undefined };
  /** True when the last open asked the era, and the server exited before it answered. */
  exitedWhenAsked(): boolean;
  log(line: string): void;
}

/**
 * Opens a server's session in its era: the one remembered for its definition (or, for a stdio server whose config
 * says so, 2025-11-25) at once, with no probe and one process; asked when nothing is known, or when the server no
 * longer answers in the remembered era (which is forgotten first). What the server answered with is remembered.
 */
export async function openInEra(config: ServerConfig, eras: EraMemory | undefined, opener: EraOpener): Promise<void> {
  const key = eraKey(config);
  const prior: PriorDiscovery | undefined = config.transport === 'stdio' && config.era === 'legacy' ? { kind: 'legacy' } : priorOf(eras?.recall(key));
  if (prior && !(await openAsRemembered(prior, opener))) {
    // Remembered wrongly (the server changed era since): forgotten, and asked afresh.
    opener.log(`the server no longer answers as a ${prior.kind === 'modern' ? '2026-07-28' : '2025-11-25'} server; asking it which era it speaks`);
    eras?.forget(key);
    await opener.reopen();
    await openAsked(config, opener);
  } else if (!prior) {
    await openAsked(config, opener);
  }
  const { era, discover } = opener.opened();
  if (era && (!prior || prior.kind !== era)) eras?.remember(key, { era, discover, at: Date.now() });
}

/**
 * Opens a session in the era the server answers with. A stdio server that exits when its first request is not
 * initialize (servers on the Rust SDK, rmcp, do) speaks 2025-11-25: it is started again in that era, as the SDK's
 * own stdio client does with a second process for every server it does not know.
 */
async function openAsked(config: ServerConfig, opener: EraOpener): Promise<void> {
  try {
    await opener.open(undefined);
  } catch (err) {
    if (config.transport !== 'stdio' || !(err instanceof McpStartError) || err.kind !== 'exited' || !opener.exitedWhenAsked()) throw err;
    opener.log('the server exited when asked which era it speaks (server/discover): starting it again as a 2025-11-25 server');
    await opener.reopen();
    await opener.open({ kind: 'legacy' });
  }
}

/**
 * Opens the session in the era remembered for the server; false when the server refused it (it answered the
 * handshake with an error, or every list it declares failed: a session in the wrong era answers nothing).
 */
async function openAsRemembered(prior: PriorDiscovery, opener: EraOpener): Promise<boolean> {
  try {
    await opener.open(prior);
  } catch (err) {
    if (refusedEra(err)) return false;
    throw err;
  }
  return !opener.answeredNothing();
}
