import { renderWithoutInputs, type Template } from './template';

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
