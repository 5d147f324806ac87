/**
 * A protected MCP server and its OAuth 2.1 authorization server in one process, for the host's OAuth
 * tests, built on the SDK's server-side auth (metadata, dynamic registration, authorize, token with PKCE
 * checked, bearer middleware). Prints `listening <port>` on stdout; the MCP endpoint is /mcp.
 * The authorization endpoint approves at once: it redirects to the client's redirect URI with a code,
 * as a signed-in person clicking "Allow" would.
 * Flags:
 *   --auth-endpoint=URL  the authorization server metadata names this authorization endpoint instead
 *                        (a hostile server: `javascript:...`, `file:///...`)
 *   --registration-endpoint=URL, --token-endpoint=URL  the same for the registration and token endpoints
 *   --authorization-server=URL  the protected-resource metadata names this authorization server instead
 *                        of this process
 *   --listen=IP          listens on this address (e.g. the machine's own private address, to be a
 *                        server on a private network) instead of 127.0.0.1; an http issuer off loopback
 *                        needs MCP_DANGEROUSLY_ALLOW_INSECURE_ISSUER_URL=1, as --ipv6 does
 *   --sse                the MCP endpoint speaks the older HTTP+SSE transport (GET /mcp, POST /messages)
 *   --issuer-path=PATH   the authorization server metadata at this origin names the issuer <origin>PATH (a
 *                        2025-03-26 server's own authorization server often does: `/oauth`)
 *   --no-resource-metadata  no protected-resource metadata (404), as a 2025-03-26 server: it is its own
 *                        authorization server
 *   --ipv6               listens on [::1] instead of 127.0.0.1 (code-server rewrites a browser's
 *                        127.0.0.1/localhost addresses to its port proxy; [::1] it leaves alone); the SDK
 *                        then needs MCP_DANGEROUSLY_ALLOW_INSECURE_ISSUER_URL=1 for an http issuer
 * Tools: whoami (the token's client, scopes and resource, as JSON); admin (needs scope `admin`: without
 * it the POST gets 403 insufficient_scope); expire (every access token issued so far stops working;
 * refresh tokens still do); revoke (every access and refresh token stops working: only a new sign-in
 * helps); stats (how many registrations, authorizations, code exchanges and refreshes).
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express, { type Request, type Response } from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createOAuthMetadata, getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';

const flag = (name: string): string | undefined => {
  const hit = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return hit === undefined ? undefined : hit.split('=').slice(1).join('=');
};
/** What the authorization server's metadata says instead of the truth. */
const endpointOverrides = Object.fromEntries(
  (
    [
      ['authorization_endpoint', flag('auth-endpoint')],
      ['registration_endpoint', flag('registration-endpoint')],
      ['token_endpoint', flag('token-endpoint')],
    ] as const
  ).filter(([, url]) => url !== undefined),
);
const otherAuthorizationServer = flag('authorization-server');
const issuerPath = flag('issuer-path');
const noResourceMetadata = flag('no-resource-metadata') !== undefined;
const legacy = flag('sse') !== undefined;
const host = flag('ipv6') !== undefined ? '::1' : (flag('listen') ?? '127.0.0.1');

const stats = { registrations: 0, authorizations: 0, exchanges: 0, refreshes: 0 };
interface Grant {
  clientId: string;
  scopes: string[];
  resource?: string;
}
const clients = new Map<string, OAuthClientInformationFull>();
const codes = new Map<string, { client: OAuthClientInformationFull; params: AuthorizationParams }>();
const accessTokens = new Map<string, Grant>();
const refreshTokens = new Map<string, Grant>();

const clientsStore: OAuthRegisteredClientsStore = {
  getClient: async (id) => clients.get(id),
  registerClient: async (client) => {
    stats.registrations++;
    const full = client as OAuthClientInformationFull;
    clients.set(full.client_id, full);
    return full;
  },
};

function issue(grant: Grant): OAuthTokens {
  const access = randomUUID();
  const refresh = randomUUID();
  accessTokens.set(access, grant);
  refreshTokens.set(refresh, grant);
  return { access_token: access, token_type: 'bearer', expires_in: 3600, refresh_token: refresh, scope: grant.scopes.join(' ') };
}

const provider: OAuthServerProvider = {
  clientsStore,
  async authorize(client, params, res) {
    stats.authorizations++;
    const code = randomUUID();
    codes.set(code, { client, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(target.href);
  },
  async challengeForAuthorizationCode(_client, code) {
    const entry = codes.get(code);
    if (!entry) throw new InvalidGrantError('unknown authorization code');
    return entry.params.codeChallenge;
  },
  async exchangeAuthorizationCode(client, code) {
    const entry = codes.get(code);
    if (!entry || entry.client.client_id !== client.client_id) throw new InvalidGrantError('unknown authorization code');
    codes.delete(code);
    stats.exchanges++;
    return issue({ clientId: client.client_id, scopes: entry.params.scopes ?? [], resource: entry.params.resource?.href });
  },
  async exchangeRefreshToken(client, refreshToken) {
    const grant = refreshTokens.get(refreshToken);
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('unknown refresh token');
    refreshTokens.delete(refreshToken);
    stats.refreshes++;
    return issue(grant);
  },
  async verifyAccessToken(token): Promise<AuthInfo> {
    const grant = accessTokens.get(token);
    if (!grant) throw new InvalidTokenError('unknown or expired token');
    return {
      token,
      clientId: grant.clientId,
      scopes: grant.scopes,
      resource: grant.resource ? new URL(grant.resource) : undefined,
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
    };
  },
};

const text = (t: string): { content: Array<{ type: 'text'; text: string }> } => ({ content: [{ type: 'text', text: t }] });

function build(auth: AuthInfo | undefined): McpServer {
  const server = new McpServer({ name: 'oauth-fake', version: '1.0.0' });
  server.registerTool('whoami', { description: 'The token this request carried' }, async () =>
    text(JSON.stringify({ clientId: auth?.clientId, scopes: auth?.scopes, resource: auth?.resource?.href })),
  );
  server.registerTool('admin', { description: 'Needs the admin scope' }, async () => text('admin done'));
  server.registerTool('expire', { description: 'Every access token so far stops working' }, async () => {
    setImmediate(() => accessTokens.clear());
    return text('expired');
  });
  server.registerTool('revoke', { description: 'Every access and refresh token stops working' }, async () => {
    setImmediate(() => {
      accessTokens.clear();
      refreshTokens.clear();
    });
    return text('revoked');
  });
  server.registerTool('stats', { description: 'What the authorization server did' }, async () => text(JSON.stringify(stats)));
  return server;
}

async function main(): Promise<void> {
  const app = express();
  const listening = app.listen(0, host);
  await new Promise<void>((resolve) => listening.once('listening', () => resolve()));
  const port = (listening.address() as AddressInfo).port;
  const base = new URL(`http://${host.includes(':') ? `[${host}]` : host}:${port}/`);
  const mcpUrl = new URL('/mcp', base);
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(mcpUrl);

  if (noResourceMetadata) app.use('/.well-known/oauth-protected-resource', (_req, res) => void res.status(404).end());
  if (Object.keys(endpointOverrides).length > 0 || issuerPath !== undefined) {
    const metadata = {
      ...createOAuthMetadata({ provider, issuerUrl: base, scopesSupported: ['mcp', 'admin'] }),
      ...endpointOverrides,
      ...(issuerPath === undefined ? {} : { issuer: new URL(issuerPath, base).href }),
    };
    app.get('/.well-known/oauth-authorization-server', (_req, res) => void res.json(metadata));
  }
  // What the resource asks for by default: the admin scope only when a tool needs it (step-up).
  app.get(
    '/.well-known/oauth-protected-resource/mcp',
    (_req, res) =>
      void res.json({
        resource: mcpUrl.href,
        authorization_servers: [otherAuthorizationServer ?? base.href],
        scopes_supported: ['mcp'],
        resource_name: 'oauth-fake',
      }),
  );
  app.use(mcpAuthRouter({ provider, issuerUrl: base, scopesSupported: ['mcp', 'admin'], resourceServerUrl: mcpUrl, resourceName: 'oauth-fake' }));
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl });
  if (legacy) mountSse(app, bearer);
  else mountStreamable(app, bearer, resourceMetadataUrl);
  process.stdout.write(`listening ${port}\n`);
}

function mountStreamable(app: express.Express, bearer: express.RequestHandler, resourceMetadataUrl: string): void {
  app.post('/mcp', bearer, express.json(), async (req: Request, res: Response) => {
    const rpc = req.body as { method?: string; params?: { name?: string } };
    if (rpc?.method === 'tools/call' && rpc.params?.name === 'admin' && !req.auth?.scopes.includes('admin')) {
      res
        .status(403)
        .set(
          'WWW-Authenticate',
          `Bearer error="insufficient_scope", scope="mcp admin", resource_metadata="${resourceMetadataUrl}", error_description="the admin tool needs the admin scope"`,
        )
        .json({ error: 'insufficient_scope' });
      return;
    }
    // Stateless: each POST is served by a fresh server that knows the request's token.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.once('close', () => void transport.close());
    await build(req.auth).connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  app.get('/mcp', bearer, (_req, res) => void res.status(405).set('Allow', 'POST').end());
}

function mountSse(app: express.Express, bearer: express.RequestHandler): void {
  const sessions = new Map<string, SSEServerTransport>();
  app.get('/mcp', bearer, async (req: Request, res: Response) => {
    const transport = new SSEServerTransport('/messages', res);
    sessions.set(transport.sessionId, transport);
    res.once('close', () => sessions.delete(transport.sessionId));
    await build(req.auth).connect(transport);
  });
  app.post('/messages', bearer, async (req: Request, res: Response) => {
    const transport = sessions.get(String(req.query.sessionId ?? ''));
    if (!transport) return void res.status(404).end('unknown session');
    await transport.handlePostMessage(req, res);
  });
}

void main();
