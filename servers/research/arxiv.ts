import type { AllowList } from '../lib/net-guard.js';
import type { FetchLimits } from '../lib/http-fetch.js';
import { ToolError } from '../lib/results.js';
import { baseUrl, describeStatus, getUpstream } from '../lib/upstream-api.js';
import { type Paper, parseArxivFeed } from './atom-feed.js';

/** Queries the arXiv API (export.arxiv.org/api/query, or ARXIV_API_URL) for a topic, by relevance. */

export const DEFAULT_ARXIV_URL = 'http://export.arxiv.org/api/query';

export interface ArxivConfig {
  arxivUrl: string;
  /** host:port pairs the arXiv call may reach whatever their address (a configured ARXIV_API_URL). */
  apiAllow: AllowList;
  limits: FetchLimits;
}

export async function searchArxiv(topic: string, maxResults: number, signal: AbortSignal, config: ArxivConfig): Promise<Paper[]> {
  const url = baseUrl(config.arxivUrl, 'ARXIV_API_URL');
  url.searchParams.set('search_query', `all:${topic}`);
  url.searchParams.set('start', '0');
  url.searchParams.set('max_results', String(maxResults));
  url.searchParams.set('sortBy', 'relevance');
  const res = await getUpstream('arXiv', url, config, signal, { headers: { accept: 'application/atom+xml' } });
  const problem = describeStatus('arXiv', res);
  if (problem) throw new ToolError(problem);
  return parseArxivFeed(res.text).slice(0, maxResults);
}
