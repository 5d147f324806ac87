import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { FetchLike } from '@modelcontextprotocol/client';
import { safeUrl } from '../transport/http-url';
import { discoveryRefusal, type Resolved } from './discovery-rules';
import { OAuthProblem } from './oauth-errors';

/**
 * The fetch every request of a server with OAuth goes through, the SDK's sign-in requests included.
 * Requests to the server's own origin (its MCP endpoint, its protected-resource metadata) go as they
 * always did, with the headers its config gives. Any other URL is one the server's metadata named: it
 * is resolved and checked (discovery-rules.ts) before anything is sent, goes without the config's
 * headers (the person agreed to send those to the server, not to whatever it names; the SDK would merge
 * them into its sign-in requests), and a redirect it answers is handed back, not followed.
 *
 * The check resolves the name and the fetch resolves it again, so a name could answer differently the
 * second time. Pinning the address is not needed for that: every URL off the server's origin must be
 * https unless it is on this computer and the server is too, so a name rebound to an inner address
 * meets a TLS handshake for the wrong name there and fails before a request is sent.
 */
export function discoveryFetch(serverUrl: URL, headers: Record<string, string> | undefined, sameOrigin: FetchLike): FetchLike {
  let server: Promise<Resolved> | undefined;
  return async (input, init) => {
    const url = new URL(input instanceof URL ? input.href : String(input));
    if (isServers(serverUrl, url)) return sameOrigin(input, withHeaders(init, headers));
    server ??= resolve(serverUrl).catch(() => ({ url: serverUrl, addresses: [] }));
    const target = await resolve(url).catch(() => ({ url, addresses: [] }));
    const why = discoveryRefusal(await server, target);
    if (why)
      throw new OAuthProblem(
        `signing in to ${safeUrl(serverUrl)} was refused before any request: its OAuth metadata points at ${why}. Check the server's OAuth metadata or ask its operator.`,
        'refused',
      );
    return fetch(url, { ...init, redirect: 'manual' });
  };
}

/** The server's own origin, or its https form on default ports: the one redirect the SDK follows within it. */
function isServers(server: URL, url: URL): boolean {
  if (url.origin === server.origin) return true;
  return url.hostname === server.hostname && server.protocol === 'http:' && server.port === '' && url.protocol === 'https:' && url.port === '';
}

async function resolve(url: URL): Promise<Resolved> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return { url, addresses: [host] };
  const found = await lookup(host, { all: true, verbatim: true });
  return { url, addresses: found.map((a) => a.address) };
}

/** The config's headers on a request to the server, over what the SDK set (as its transports would). */
function withHeaders(init: RequestInit | undefined, headers: Record<string, string> | undefined): RequestInit | undefined {
  if (!headers || Object.keys(headers).length === 0) return init;
  const merged = new Headers(init?.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  return { ...init, headers: merged };
}
