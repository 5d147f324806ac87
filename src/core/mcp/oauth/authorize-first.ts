import {
  auth,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  IssuerMismatchError,
  PROTOCOL_VERSION_META_KEY,
  type FetchLike,
} from '@modelcontextprotocol/client';
import type { HostOAuthProvider } from './client-provider';

const PROBE_TIMEOUT_MS = 10_000;

/**
 * Before `initialize`, asks the server whether it wants authorization, and gets it first when it does.
 * The SDK would do it on the 401 to `initialize` too, but that request runs on a timeout (15 s) while
 * the person is in the browser; here the wait has no clock but the sign-in's own. The question is a
 * `ping`, the one request the spec lets a client send before `initialize`, POSTed as `initialize` will
 * be (a GET is not enough: servers that offer no standalone stream often leave GET unprotected). A server
 * that needs no authorization answers it somehow (400 without a session, 200); only a 401 means anything.
 * With `modernMeta` (the era is not known to be 2025-11-25) the question is `server/discover` instead, as a whole
 * 2026-07-28 request: that era has no ping and no session to be before, and says every POST carries
 * `MCP-Protocol-Version`, `Mcp-Method` and the `_meta` envelope (the conformance suite's request-metadata and
 * http-standard-headers check it).
 */
export async function authorizeFirst(
  url: URL,
  headers: Record<string, string> | undefined,
  provider: HostOAuthProvider,
  fetchFn: FetchLike = fetch,
  modernMeta?: Record<string, unknown>,
): Promise<void> {
  const sent = new Headers(headers);
  const tokens = await provider.tokens();
  if (tokens) sent.set('Authorization', `Bearer ${tokens.access_token}`);
  sent.set('Accept', 'application/json, text/event-stream');
  sent.set('Content-Type', 'application/json');
  // 2026-07-28 has no ping: there the question is server/discover, the era's own first request.
  const method = modernMeta ? 'server/discover' : 'ping';
  const probe: Record<string, unknown> = { jsonrpc: '2.0', id: 'mcp-agent-authorization-probe', method };
  if (modernMeta) {
    const version = String(modernMeta[PROTOCOL_VERSION_META_KEY]);
    sent.set('MCP-Protocol-Version', version);
    sent.set('Mcp-Method', method);
    probe.params = { _meta: modernMeta };
  }
  const body = JSON.stringify(probe);
  let response: Response;
  try {
    response = await fetchFn(url, { method: 'POST', headers: sent, body, redirect: 'manual', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
  } catch {
    // Unreachable or slow: initialize says so properly.
    return;
  }
  await response.body?.cancel().catch(() => undefined);
  if (response.status !== 401) return;
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  await provider.prepare();
  await authorize(provider, { serverUrl: url, resourceMetadataUrl, scope, fetchFn });
}

type AuthorizeOptions = { serverUrl: URL; resourceMetadataUrl?: URL; scope?: string; fetchFn?: FetchLike; skipIssuerMetadataValidation?: boolean };

/**
 * auth() through to tokens: when it sent the person to the browser, waits for the redirect and exchanges its code.
 * A 2025-03-26 server is its own authorization server: it publishes no protected-resource metadata, and the
 * metadata at its origin may name an issuer with a path (`https://host/oauth`), which the RFC 8414 issuer check
 * refuses. Only then, and only for an issuer on the server's own origin, is the check left out (ownIssuer).
 */
async function authorize(provider: HostOAuthProvider, options: AuthorizeOptions): Promise<void> {
  try {
    await authorizeChecked(provider, options);
  } catch (err) {
    if (!(await ownIssuer(err, options))) throw err;
    await authorizeChecked(provider, { ...options, skipIssuerMetadataValidation: true });
  }
}

async function authorizeChecked(provider: HostOAuthProvider, options: AuthorizeOptions): Promise<void> {
  const result = await auth(provider, options);
  if (result === 'AUTHORIZED') return;
  const redirect = provider.takeAuthorizationCode();
  if (!redirect) return;
  const { code, iss } = await redirect;
  await auth(provider, { ...options, authorizationCode: code, ...(iss === undefined ? {} : { iss }) });
}

/**
 * True when `err` is the issuer check refusing the metadata of a server that is its own authorization server in
 * the 2025-03-26 way: the issuer expected is the server's origin (no protected-resource metadata named another),
 * the issuer given is on that same origin, and the server publishes no protected-resource metadata at all. A
 * server that publishes it (2025-06-18 on, 2026-07-28 included) keeps the full check.
 */
async function ownIssuer(err: unknown, options: AuthorizeOptions): Promise<boolean> {
  if (!(err instanceof IssuerMismatchError) || err.kind !== 'metadata' || options.skipIssuerMetadataValidation) return false;
  const origin = new URL('/', options.serverUrl).href;
  if (err.expected !== origin || !err.received || !sameOrigin(err.received, options.serverUrl)) return false;
  try {
    await discoverOAuthProtectedResourceMetadata(options.serverUrl, { resourceMetadataUrl: options.resourceMetadataUrl }, options.fetchFn);
    return false;
  } catch (prm) {
    // Only its absence (404 at every well-known place): an error fetching it says nothing of the server's era.
    return prm instanceof Error && /does not implement OAuth 2\.0 Protected Resource Metadata/.test(prm.message);
  }
}

function sameOrigin(url: string, server: URL): boolean {
  try {
    return new URL(url).origin === server.origin;
  } catch {
    return false;
  }
}
