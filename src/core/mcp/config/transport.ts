import * as z from 'zod';
import { renderWithoutInputs, type Template } from './template';

/**
 * `startTimeout`: the seconds a server is given to answer initialize, over the host's own start limit (the
 * `mcpAgent.serverStartTimeoutSeconds` setting; 15 s in the CLI). A key neither VS Code nor Claude reads, which both
 * leave alone.
 */
export const START_TIMEOUT = {
  startTimeout: z
    .number({ error: 'must be a number of seconds' })
    .positive({ error: 'must be more than 0 seconds' })
    .max(3600, { error: 'must be at most 3600 seconds' })
    .optional(),
};

/** `startTimeout` (seconds) as the definition keeps it. */
export function startTimeoutMs(data: { startTimeout?: number | undefined }): { startTimeoutMs?: number } {
  return data.startTimeout === undefined ? {} : { startTimeoutMs: Math.round(data.startTimeout * 1000) };
}

/** What a server's `type` may be, for messages. */
export const TRANSPORT_HINT = '"stdio" (a program to run), "http" or "sse" (a server at a URL)';

/** Why a URL cannot be reached over HTTP; unchecked while it still holds an input. */
export function checkUrl(url: Template): string | undefined {
  const text = renderWithoutInputs(url);
  if (text === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return `"url" ${JSON.stringify(text)} is not a URL: write it in full, e.g. "https://example.com/mcp"`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `"url" must start with http:// or https://, not ${parsed.protocol}//`;
  return undefined;
}

export function mapValues<T, U>(record: Record<string, T>, f: (value: T, key: string) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v, k)]));
}
