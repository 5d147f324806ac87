import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** An error a person can act on: its message goes back to the model and the user as is. */
export class ToolError extends Error {
  override name = 'ToolError';
}

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
): (args: A, extra: ToolExtra) => Promise<CallToolResult> {
  return async (args, extra) => {
    try {
      return await handler(args, extra);
    } catch (err) {
      if (err instanceof ToolError) return errorResult(err.message);
      if (extra?.signal?.aborted) return errorResult(`${tool}: cancelled`);
      const message = err instanceof Error ? err.message : String(err);
      return errorResult(`${tool} failed: ${message}`);
    }
  };
}

/** The parts of the SDK's request extra that tools use: cancellation and progress. */
export interface ToolExtra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
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
