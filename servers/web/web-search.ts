import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { textResult, ToolError } from '../lib/results.js';
import { baseUrl, describeStatus, getUpstream, type UpstreamConfig } from '../lib/upstream-api.js';

/** web_search on the Brave Search API, summarised as a numbered list. */

export const DEFAULT_BRAVE_URL = 'https://api.search.brave.com/res/v1/web/search';

export interface SearchConfig extends UpstreamConfig {
  braveUrl: string;
  braveKey: string | undefined;
}

const NO_KEY =
  'web_search needs a Brave Search API key. In VS Code, run the command "MCP Agent: Set Brave Search Key"; ' +
  'running the server on its own, set the BRAVE_API_KEY environment variable in its MCP config. ' +
  'A free key is available at https://brave.com/search/api/.';

interface BraveResult {
  title?: unknown;
  url?: unknown;
  description?: unknown;
  age?: unknown;
}

/** Brave marks matches with <strong>; a plain-text reader wants the words only. */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x?[0-9a-f]+|amp|lt|gt|quot|apos|nbsp);/gi, (_m, entity: string) => decodeEntity(entity))
    .replace(/\s+/g, ' ')
    .trim();
}

function decodeEntity(entity: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  const lower = entity.toLowerCase();
  if (named[lower]) return named[lower];
  const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
  return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function formatSearchResults(query: string, json: unknown): string {
  const results = ((json as { web?: { results?: BraveResult[] } })?.web?.results ?? []).filter((r) => r && typeof r === 'object');
  if (results.length === 0) return `No web results for "${query}".`;
  const lines = [`Web results for "${query}":`, ''];
  results.forEach((r, i) => {
    lines.push(`${i + 1}. ${plainText(str(r.title)) || '(untitled)'}`);
    if (str(r.url)) lines.push(`   ${str(r.url)}`);
    const description = plainText(str(r.description));
    if (description) lines.push(`   ${description}${str(r.age) ? ` (${str(r.age)})` : ''}`);
    lines.push('');
  });
  return lines.join('\n').trimEnd();
}

export async function webSearch(args: { query: string; count?: number }, signal: AbortSignal, config: SearchConfig): Promise<CallToolResult> {
  if (!config.braveKey) throw new ToolError(NO_KEY);
  const url = baseUrl(config.braveUrl, 'BRAVE_SEARCH_URL');
  url.searchParams.set('q', args.query);
  url.searchParams.set('count', String(args.count ?? 10));
  const res = await getUpstream('Brave Search', url, config, signal, { secretHeaders: { 'x-subscription-token': config.braveKey } });
  if (res.secretsWithheld && (res.status === 401 || res.status === 403)) {
    throw new ToolError(
      `Brave Search redirected to ${res.url.origin}, another origin than ${url.origin}, and the API key is only sent to ` +
        `${url.origin}; that server refused the request (HTTP ${res.status}). Check BRAVE_SEARCH_URL: it should name the API itself.`,
    );
  }
  if (res.status === 401 || res.status === 403) {
    throw new ToolError(
      `Brave Search refused the API key (HTTP ${res.status}). Check the key: in VS Code run "MCP Agent: Set Brave Search Key"; ` +
        'standalone, fix BRAVE_API_KEY.',
    );
  }
  const problem = describeStatus('Brave Search', res);
  if (problem) throw new ToolError(problem);
  if (res.json === undefined) throw new ToolError('Brave Search answered with something that is not JSON; try again later.');
  return textResult(formatSearchResults(args.query, res.json));
}
