import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { BrotliDecompress, Gunzip, Inflate } from 'node:zlib';
import { type AllowList, BlockedUrlError, bareHost, checkAddresses, parseWebUrl } from './net-guard.js';

/**
 * An HTTP GET that can't be turned against the machine it runs on: every hop's host is resolved
 * and checked before connecting, the connection is pinned to the checked address (no DNS
 * rebinding between check and connect), redirects are followed by hand and checked again, and the
 * body is capped in bytes and the whole exchange in time. Headers that carry a key or token go
 * only to the origin the fetch started at: a redirect elsewhere is followed without them. A caller
 * fetching a URL someone chose (fetch_url) has a redirect to another host reported, not followed.
 */

export interface FetchLimits {
  /** Bytes of (decoded) body kept; the rest is not downloaded. */
  maxBytes: number;
  /** Total time for every hop and the whole body. */
  timeoutMs: number;
  maxRedirects: number;
}

export interface FetchOptions {
  /** host:port pairs that may be reached whatever their address (tests, configured APIs). */
  allow: AllowList;
  limits: FetchLimits;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /**
   * Headers that carry a key or token (an API key, a bearer token): sent only while the request
   * stays on the origin of the URL it started at. Headers named in CREDENTIAL_HEADERS are treated
   * so even when given in `headers`.
   */
  secretHeaders?: Record<string, string>;
  onProgress?: (receivedBytes: number, totalBytes: number | undefined) => void;
  /**
   * A redirect to another host than the one the fetch started at: followed ('follow', for a configured API whose
   * address nobody picks per call), or not followed and given back as `redirectedTo` ('report'): another host is a
   * new place, for whoever chose the first one to decide on (fetch_url's caller, and the host's egress guard).
   */
  otherHostRedirects?: 'follow' | 'report';
}

export interface FetchedResponse {
  /** The URL after redirects. */
  url: URL;
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** True when the body was cut at `limits.maxBytes`. */
  truncated: boolean;
  /** True when a redirect left the starting origin and secret headers were therefore not sent there. */
  secretsWithheld: boolean;
  /** With otherHostRedirects 'report': where `url` redirected to, on another host, not followed (the body is empty). */
  redirectedTo?: URL;
}

/** Header names that carry credentials whoever passes them. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'x-subscription-token']);

/** The headers for one hop: the secret ones only on the starting origin. */
function hopHeaders(options: FetchOptions, sameOrigin: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (sameOrigin || !CREDENTIAL_HEADERS.has(name.toLowerCase())) headers[name] = value;
  }
  if (sameOrigin) Object.assign(headers, options.secretHeaders);
  return headers;
}

function carriesSecrets(options: FetchOptions): boolean {
  return Object.keys(options.secretHeaders ?? {}).length > 0 || Object.keys(options.headers ?? {}).some((name) => CREDENTIAL_HEADERS.has(name.toLowerCase()));
}

/** A fetch failure with a message that says what happened in plain words. */
export class FetchError extends Error {
  override name = 'FetchError';
}

const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 20_000;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Limits from `MCP_AGENT_FETCH_MAX_BYTES` and `MCP_AGENT_FETCH_TIMEOUT_MS`, else 5 MB and 20 s. */
export function limitsFromEnv(env: NodeJS.ProcessEnv = process.env): FetchLimits {
  return {
    maxBytes: positiveInt(env.MCP_AGENT_FETCH_MAX_BYTES) ?? DEFAULT_MAX_BYTES,
    timeoutMs: positiveInt(env.MCP_AGENT_FETCH_TIMEOUT_MS) ?? DEFAULT_TIMEOUT_MS,
    maxRedirects: 5,
  };
}

function positiveInt(text: string | undefined): number | undefined {
  const n = Number(text);
  return text && Number.isInteger(n) && n > 0 ? n : undefined;
}

export async function guardedFetch(target: string | URL, options: FetchOptions): Promise<FetchedResponse> {
  const { limits } = options;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), limits.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
  let url = typeof target === 'string' ? parseWebUrl(target) : target;
  const { origin, hostname } = url;
  let secretsWithheld = false;
  try {
    for (let hop = 0; ; hop++) {
      signal.throwIfAborted();
      const addresses = await resolveChecked(url, options.allow, signal);
      const sameOrigin = url.origin === origin;
      if (!sameOrigin && carriesSecrets(options)) secretsWithheld = true;
      const res = await send(url, addresses, hopHeaders(options, sameOrigin), signal);
      const location = res.headers.location;
      if (REDIRECTS.has(res.statusCode ?? 0) && location) {
        res.destroy();
        const next = nextHop(url, location);
        if (options.otherHostRedirects === 'report' && next.hostname !== hostname) {
          const status = res.statusCode ?? 0;
          return {
            url,
            status,
            statusText: res.statusMessage ?? '',
            headers: res.headers,
            body: Buffer.alloc(0),
            truncated: false,
            secretsWithheld,
            redirectedTo: next,
          };
        }
        if (hop >= limits.maxRedirects) {
          throw new FetchError(`too many redirects (more than ${limits.maxRedirects}) starting from ${String(target)}`);
        }
        url = next;
        continue;
      }
      const total = Number(res.headers['content-length']) || undefined;
      const { body, truncated } = await readCapped(res, limits.maxBytes, signal, (n) => options.onProgress?.(n, total));
      return {
        url,
        status: res.statusCode ?? 0,
        statusText: res.statusMessage ?? '',
        headers: res.headers,
        body,
        truncated,
        secretsWithheld,
      };
    }
  } catch (err) {
    if (deadline.signal.aborted) {
      throw new FetchError(
        `${url.href} did not finish within ${+(limits.timeoutMs / 1000).toFixed(1)} s (the time limit for one fetch); ` + 'the server is too slow or stalled',
      );
    }
    if (options.signal?.aborted) throw new FetchError('the request was cancelled');
    throw explain(err, url);
  } finally {
    clearTimeout(timer);
  }
}

function nextHop(from: URL, location: string): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new FetchError(`${from.href} redirected to an invalid URL "${location}"`);
  }
  try {
    return parseWebUrl(next.href);
  } catch (err) {
    throw new BlockedUrlError(`${from.href} redirected to ${next.href}, which is refused: ${(err as Error).message}`);
  }
}

// Node's DNS, HTTP and HTTPS clients (TLS and crypto with them) and zlib load at the first fetch, not with the
// server: one that has fetched nothing would carry them unused (bench/README.md, `start`). require, as the bundle is CommonJS.
/* eslint-disable @typescript-eslint/no-require-imports -- on first use, on purpose (above) */
const nodeDns = (): typeof import('node:dns') => require('node:dns');
const nodeHttp = (): typeof import('node:http') => require('node:http');
const nodeHttps = (): typeof import('node:https') => require('node:https');
const nodeZlib = (): typeof import('node:zlib') => require('node:zlib');
/* eslint-enable @typescript-eslint/no-require-imports */

/** Every address the host resolved to, all checked; the connection may use any of them. */
type CheckedAddresses = LookupAddress[];

async function resolveChecked(url: URL, allow: AllowList, signal: AbortSignal): Promise<CheckedAddresses> {
  const host = bareHost(url);
  const family = isIP(host);
  const found: LookupAddress[] = family ? [{ address: host, family }] : await resolveAll(host, signal);
  checkAddresses(
    url,
    found.map((a) => a.address),
    allow,
  );
  return found;
}

function resolveAll(host: string, signal: AbortSignal): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    nodeDns().lookup(host, { all: true, verbatim: true }, (err, addresses) => {
      signal.removeEventListener('abort', onAbort);
      if (err) reject(new FetchError(`could not resolve host name "${host}" (${err.code ?? err.message})`));
      else resolve(addresses);
    });
  });
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that answers with the addresses already checked, never asking DNS
 * again. With `all` (Node's happy-eyeballs connect) it hands over every one, so a host listed as
 * both ::1 and 127.0.0.1 connects on whichever answers.
 */
function pinnedLookup(checked: CheckedAddresses) {
  return (_host: string, opts: { all?: boolean }, callback: LookupCallback): void => {
    if (opts?.all) callback(null, checked);
    else callback(null, checked[0]!.address, checked[0]!.family);
  };
}

function send(url: URL, checked: CheckedAddresses, headers: Record<string, string>, signal: AbortSignal): Promise<IncomingMessage> {
  const client = url.protocol === 'https:' ? nodeHttps() : nodeHttp();
  return new Promise((resolve, reject) => {
    const req = client.request({
      protocol: url.protocol,
      hostname: bareHost(url),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      agent: false,
      lookup: pinnedLookup(checked) as unknown as typeof import('node:dns').lookup,
      headers: {
        'user-agent': 'mcp-agent/0.1 (+https://modelcontextprotocol.io)',
        'accept-encoding': 'gzip, deflate, br',
        ...headers,
      },
      signal,
    });
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
}

function decoded(res: IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  let decoder: Gunzip | Inflate | BrotliDecompress | undefined;
  if (encoding === 'gzip' || encoding === 'x-gzip') decoder = nodeZlib().createGunzip();
  else if (encoding === 'deflate') decoder = nodeZlib().createInflate();
  else if (encoding === 'br') decoder = nodeZlib().createBrotliDecompress();
  if (!decoder) return res;
  res.on('error', (err) => decoder.destroy(err));
  return res.pipe(decoder);
}

/** Reads at most `maxBytes` of the decoded body; the cap applies after decompression (zip bombs). */
function readCapped(
  res: IncomingMessage,
  maxBytes: number,
  signal: AbortSignal,
  progress: (received: number) => void,
): Promise<{ body: Buffer; truncated: boolean }> {
  const stream = decoded(res);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (truncated: boolean): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      resolve({ body: Buffer.concat(chunks, size), truncated });
    };
    const fail = (err: unknown): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      res.destroy();
      reject(err);
    };
    const onAbort = (): void => fail(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    stream.on('data', (chunk: Buffer) => {
      if (settled) return;
      const room = maxBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        finish(true);
        res.destroy();
        stream.destroy();
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
      progress(size);
    });
    stream.on('end', () => finish(false));
    stream.on('error', fail);
    res.on('aborted', () => fail(new FetchError('the server closed the connection before the body was complete')));
  });
}

/** Turns socket and TLS error codes into sentences. */
function explain(err: unknown, url: URL): Error {
  if (err instanceof FetchError || err instanceof BlockedUrlError) return err;
  const e = err as NodeJS.ErrnoException;
  const where = url.host;
  switch (e?.code) {
    case 'ECONNREFUSED':
      return new FetchError(`connection refused by ${where}`);
    case 'ECONNRESET':
      return new FetchError(`${where} reset the connection`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new FetchError(`could not resolve host name "${url.hostname}"`);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new FetchError(`${where} is unreachable from here`);
    case 'Z_DATA_ERROR':
    case 'Z_BUF_ERROR':
    case 'ERR_PADDING_1':
      return new FetchError(`${where} sent a compressed body that could not be decoded`);
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_INVALID_HEADER_TOKEN':
      return new FetchError(`${where} sent a malformed HTTP response`);
    default:
      if (e?.code && /CERT|SSL|TLS/.test(e.code)) return new FetchError(`TLS error talking to ${where}: ${e.message}`);
      return new FetchError(`fetching ${url.href} failed: ${e?.message ?? String(err)}`);
  }
}
