import { ProtocolError, type JSONRPCMessage } from '@modelcontextprotocol/client';

/** JSON-RPC's "connection closed" code, as MCP implementations use it. */
const CONNECTION_CLOSED = -32000;

/**
 * The SDK turns a server's error answer into the same ProtocolError it makes for its own timeouts (-32001) and
 * closed connections (-32000), so a server's "-32000 custom failure" read as "closed the connection". The
 * `data` object of an error answer reaches the ProtocolError unchanged, so it is remembered on arrival: an error
 * whose data is one of those came from the server. An answer without data gets an empty object to carry it.
 */
const fromServer = new WeakMap<object, { code: number; message: string }>();

/** Remembers an error answer from the server; any message comes back ready to deliver. */
export function markServerError(message: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in message) || !message.error || typeof message.error !== 'object') return message;
  const error = message.error as { code: number; message: string; data?: unknown };
  if (error.data !== null && typeof error.data === 'object' && fromHost.has(error.data)) return message;
  const data = error.data !== null && typeof error.data === 'object' ? error.data : error.data === undefined ? {} : { value: error.data };
  fromServer.set(data, { code: error.code, message: String(error.message) });
  return data === error.data ? message : ({ ...message, error: { ...error, data } } as JSONRPCMessage);
}

/** The server's own code and message when `err` came from its error answer. */
export function serverErrorOf(err: unknown): { code: number; message: string } | undefined {
  if (!(err instanceof ProtocolError) || err.data === null || typeof err.data !== 'object') return undefined;
  return fromServer.get(err.data as object);
}

/** Error answers the host makes itself for a request whose answer can no longer come (a dropped stream). */
const fromHost = new WeakMap<object, string>();

/** An error answer to `id` that says the host gave up on it, never mistaken for the server's. */
export function hostErrorAnswer(id: string | number, message: string): JSONRPCMessage {
  const data = {};
  fromHost.set(data, message);
  return { jsonrpc: '2.0', id, error: { code: CONNECTION_CLOSED, message, data } };
}

/** The host's own words when `err` came from hostErrorAnswer. */
export function hostErrorOf(err: unknown): string | undefined {
  if (!(err instanceof ProtocolError) || err.data === null || typeof err.data !== 'object') return undefined;
  return fromHost.get(err.data as object);
}
