import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { ToolError } from '../../src/node/tool-error';
import { messageOf } from '../../src/node/error-message';

export { ToolError };

export function textResult(text: string, structured?: Record<string, unknown>): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text }] };
  if (structured) result.structuredContent = structured;
  return result;
}

export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * Wraps a tool handler so that any failure becomes an `isError` result with a clear message,
 * never a protocol error or a crash. Unexpected errors keep their message, prefixed with the tool.
 */
export function guarded<A>(
  tool: string,
  handler: (args: A, extra: ToolExtra) => Promise<CallToolResult>,
  options: { heartbeat?: boolean } = {},
): (args: A, extra: ToolExtra) => Promise<CallToolResult> {
  return async (args, extra) => {
    const beat = options.heartbeat ? heartbeat(tool, extra) : undefined;
    try {
      return await handler(args, extra);
    } catch (err) {
      if (err instanceof ToolError) return errorResult(err.message);
      if (extra?.signal?.aborted) return errorResult(`${tool}: cancelled`);
      const message = messageOf(err);
      return errorResult(`${tool} failed: ${message}`);
    } finally {
      if (beat) clearInterval(beat);
    }
  };
}

const HEARTBEAT_MS = 1000;

/**
 * For tools that wait on a remote API and have no finer measure of progress: once a call has run
 * a second, a progress notification each second says it is still waiting, so a client can show it.
 */
function heartbeat(tool: string, extra: ToolExtra): ReturnType<typeof setInterval> | undefined {
  if (extra._meta?.progressToken === undefined) return undefined;
  let seconds = 0;
  const timer = setInterval(() => {
    seconds += 1;
    reportProgress(extra, seconds, undefined, `${tool}: waiting for the answer (${seconds} s)`).catch(() => undefined);
  }, HEARTBEAT_MS);
  timer.unref();
  return timer;
}

/** The parts of the SDK's request extra that tools use: cancellation and progress. */
export interface ToolExtra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number; [key: string]: unknown };
  sendNotification: (n: {
    method: 'notifications/progress';
    params: { progressToken: string | number; progress: number; total?: number; message?: string };
  }) => Promise<void>;
}

/** Sends a progress notification when the caller asked for them (gave a progress token). */
export async function reportProgress(extra: ToolExtra, progress: number, total?: number, message?: string): Promise<void> {
  const token = extra._meta?.progressToken;
  if (token === undefined) return;
  await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, total, message } });
}
