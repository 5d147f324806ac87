import type { IncomingHttpHeaders } from 'node:http';
import { formatBytes } from '../../src/node/byte-size';
import { FetchError, type FetchLimits, guardedFetch } from './http-fetch.js';
import { type AllowList, BlockedUrlError, hostPortOf } from './net-guard.js';
import { ToolError } from './results.js';

/**
 * Calls to the APIs the tools are built on (Brave, wttr.in, ESPN, arXiv). A base URL set by the
 * operator (env) is trusted even on a private address (local fakes, proxies); the built-in public
 * defaults, and anything an API redirects to, go through the same guard as fetch_url. The size cap
 * and the deadline always apply, and an API key goes only to the API's own origin, never to where
 * it redirects.
 */

export interface UpstreamConfig {
  /** host:port pairs API calls may reach whatever their address. */
  apiAllow: AllowList;
  limits: FetchLimits;
}

/** The fetch allow list plus the host:port of every base URL the operator set explicitly. */
export function apiAllowList(configuredBases: (string | undefined)[], fetchAllow: AllowList): AllowList {
  const allow = new Set(fetchAllow);
  for (const base of configuredBases) {
    if (!base) continue;
    try {
      allow.add(hostPortOf(new URL(base)));
    } catch {
      // An invalid base is reported when a tool uses it.
    }
  }
  return allow;
}

export interface UpstreamResponse {
  /** Where the answer came from, after redirects. */
  url: URL;
  /** True when a redirect left the API's origin, so its key was not sent there. */
  secretsWithheld: boolean;
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or undefined when it isn't JSON. */
  json: unknown;
}

/** Parses a configured base URL, naming the env variable when it's wrong. */
export function baseUrl(value: string, envName: string): URL {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // reported below
  }
  throw new ToolError(`${envName} is set to "${value}", which is not an http(s) URL; fix or unset it.`);
}

/** Joins path segments onto a base URL, keeping the base's own path. */
export function joinUrl(base: URL, path: string): URL {
  const url = new URL(base.href);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  return url;
}

export interface UpstreamRequest {
  headers?: Record<string, string>;
  /** Headers that carry the API's key or token: sent only to the origin of `url`. */
  secretHeaders?: Record<string, string>;
}

export async function getUpstream(
  service: string,
  url: URL,
  config: UpstreamConfig,
  signal: AbortSignal,
  request: UpstreamRequest = {},
): Promise<UpstreamResponse> {
  try {
    const res = await guardedFetch(url, {
      allow: config.apiAllow,
      limits: config.limits,
      signal,
      headers: { accept: 'application/json', ...request.headers },
      secretHeaders: request.secretHeaders,
    });
    if (res.truncated) {
      throw new ToolError(`${service} sent more than ${formatBytes(config.limits.maxBytes)} (the size limit of one call); try a narrower request.`);
    }
    const text = res.body.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { url: res.url, secretsWithheld: res.secretsWithheld, status: res.status, headers: res.headers, text, json };
  } catch (err) {
    if (err instanceof FetchError || err instanceof BlockedUrlError) {
      throw new ToolError(`${service} could not be reached: ${err.message}`);
    }
    throw err;
  }
}

/** The common non-2xx answers, phrased for a person. Returns nothing for statuses a tool handles itself. */
export function describeStatus(service: string, res: UpstreamResponse): string | undefined {
  const { status } = res;
  if (status >= 200 && status < 300) return undefined;
  if (status === 429) {
    const retry = res.headers['retry-after'];
    return `${service} is rate limiting requests (HTTP 429)${retry ? `; retry after ${retry} s` : '; wait a moment and retry'}.`;
  }
  if (status >= 500) return `${service} is having trouble (HTTP ${status}); try again later.`;
  return `${service} answered HTTP ${status}${res.text ? `: ${res.text.trim().slice(0, 300)}` : ''}.`;
}
