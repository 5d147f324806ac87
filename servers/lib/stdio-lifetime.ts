import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/** What the client may no longer answer once its input is gone. */
const NOBODY_ANSWERS = 'the client closed its input, so nobody can answer this request';

export interface StdioLifetime {
  /** Stdin ended: requests to the client fail at once (no answer can arrive), the client's own still run. */
  inputEnded(): void;
  /** Resolves once the input ended and every request the client sent has been answered or cancelled. */
  drained(): Promise<void>;
}

/**
 * Keeps a stdio server alive for what it was asked. A client that writes a request and closes its
 * input (`echo '{…"tools/call"…}' | node server.js`) still gets the answer: the server exits on EOF
 * only once every request has been answered, each bounded by its tool's own limits. Installed on the
 * transport before the server connects: the SDK's Protocol calls callbacks already set, then its own.
 */
export function trackStdioLifetime(transport: Transport): StdioLifetime {
  const fromClient = new Set<RequestId>();
  const toClient = new Set<RequestId>();
  let ended = false;
  let wake: (() => void) | undefined;
  const empty = new Promise<void>((resolve) => (wake = resolve));
  const settle = (): void => {
    if (ended && fromClient.size === 0) wake?.();
  };

  const seen = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('method' in message && 'id' in message) fromClient.add(message.id);
    else if ('id' in message && message.id !== undefined) toClient.delete(message.id);
    else if ('method' in message && message.method === 'notifications/cancelled') {
      // A cancelled request gets no answer (the SDK sends none), so it no longer holds the process.
      fromClient.delete((message.params as { requestId?: RequestId } | undefined)?.requestId ?? '');
      settle();
    }
    seen?.(message, extra);
  };

  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    if ('method' in message && 'id' in message) {
      if (ended) return unanswerable(message.id);
      toClient.add(message.id);
    } else if ('id' in message && message.id !== undefined && !('method' in message)) {
      fromClient.delete(message.id);
    }
    try {
      await send(message, options);
    } finally {
      settle();
    }
  };

  /** Answers a request of ours as the client would if it could: with an error, through the server's own dispatch. */
  const unanswerable = (id: RequestId): void => {
    toClient.delete(id);
    const answer: JSONRPCMessage = { jsonrpc: '2.0', id, error: { code: ErrorCode.ConnectionClosed, message: NOBODY_ANSWERS } };
    queueMicrotask(() => transport.onmessage?.(answer));
  };

  return {
    inputEnded() {
      if (ended) return;
      ended = true;
      for (const id of [...toClient]) unanswerable(id);
      settle();
    },
    drained: () => empty,
  };
}
