import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  SdkHttpError,
  type LoggingLevel,
} from '@modelcontextprotocol/client';
import { clientCapabilities, type ClientHandlers } from '../client/client-handlers';
import { MODERN_PROTOCOL_VERSION, type ProtocolEra } from './era-memory';

/**
 * The 2026-07-28 envelope of a request sent before any session (the HTTP sign-in probe): what the SDK puts on its
 * own requests, the version, the capabilities and who asks.
 */
export function probeMeta(handlers: ClientHandlers, clientInfo: { name: string; version: string }): Record<string, unknown> {
  return {
    [PROTOCOL_VERSION_META_KEY]: MODERN_PROTOCOL_VERSION,
    [CLIENT_CAPABILITIES_META_KEY]: clientCapabilities(handlers),
    [CLIENT_INFO_META_KEY]: clientInfo,
  };
}

/**
 * The per-request `_meta` keys of the 2026-07-28 era: the level a server that logs may log at within the request
 * (2025-11-25 sets it once, by logging/setLevel). Undefined: nothing to add.
 */
export function envelopeMeta(era: ProtocolEra | undefined, level: LoggingLevel | undefined, serverLogs: boolean): Record<string, unknown> | undefined {
  if (era !== 'modern' || !level || !serverLogs) return undefined;
  return { [LOG_LEVEL_META_KEY]: level };
}

/** A handshake the server answered with a refusal (a JSON-RPC error, HTTP 400): not an outage, nor a sign-in. */
export function refusedEra(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof ProtocolError) return true;
    if (e instanceof SdkHttpError && e.status === 400) return true;
  }
  return false;
}
