import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * Answers a line that is not JSON with JSON-RPC's parse error (-32700), and JSON that is no JSON-RPC
 * message with its invalid request (-32600), both with a null id as the spec asks when none can be
 * read. The SDK's stdio transport only reports these to `onerror`, so a client that sent a broken
 * line waited for an answer that never came. Installed before the server connects.
 */
export function answerUnreadableMessages(transport: Transport): void {
  const reported = transport.onerror;
  transport.onerror = (error) => {
    reported?.(error);
    const answer = answerTo(error);
    if (answer) void transport.send(answer).catch(() => undefined);
  };
}

function answerTo(error: Error): JSONRPCMessage | undefined {
  // JSON.parse throws SyntaxError; the SDK's message schema throws a ZodError (by name: zod's copy is the SDK's own).
  if (error instanceof SyntaxError) return failure(ErrorCode.ParseError, `Parse error: ${error.message}`);
  if (error.name === 'ZodError') return failure(ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response');
  return undefined;
}

function failure(code: number, message: string): JSONRPCMessage {
  // The SDK's types want an id; JSON-RPC answers an unreadable message with null.
  return { jsonrpc: '2.0', id: null, error: { code, message } } as unknown as JSONRPCMessage;
}
