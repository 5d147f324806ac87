import { randomBytes } from 'node:crypto';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { checkAuthorizationUrl } from './authorization-url';
import type { OAuthFrontEnd } from './front-end';
import { LoopbackRedirect, type AuthorizationResponse } from './loopback-redirect';
import { OAuthProblem } from './oauth-errors';
import type { IssuerCredentials, OAuthRecord } from './oauth-store';

/** The authorization server the SDK is talking to, when it says (SEP-2352: credentials belong to their issuer). */
type IssuerContext = { issuer?: string } | undefined;

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/**
 * The host's side of OAuth 2.1 for one remote server, as the SDK's `OAuthClientProvider`: the SDK does
 * discovery, registration (with `application_type` "native", derived from the loopback redirect), PKCE,
 * resource indicators, token exchange and refresh, and checks the redirect's `iss` (RFC 9207); this keeps
 * what it hands over (in the front end's store, per authorization server, each value as the SDK stamped
 * it), checks the authorization URL, asks the person through the front end, and catches the redirect on
 * loopback (loopback-redirect.ts).
 */
export class HostOAuthProvider implements OAuthClientProvider {
  private readonly loopback = new LoopbackRedirect();
  private record: OAuthRecord | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private verifier: string | undefined;
  private flowState: string | undefined;
  private pending: Promise<AuthorizationResponse> | undefined;
  private steppingUp = false;

  constructor(
    /** The server's URL as fetched: the key of its record in the store. */
    readonly serverUrl: string,
    /** The server's name, for messages. */
    private readonly server: string,
    private readonly front: OAuthFrontEnd,
  ) {}

  get redirectUrl(): string | undefined {
    return this.loopback.url;
  }

  get clientMetadataUrl(): string | undefined {
    return this.front.clientMetadataUrl;
  }

  /**
   * Read by the SDK first thing in a sign-in, before anything awaited: the redirect URI is the loopback's once
   * it listens (prepare()), else the one registered last time, which it will listen on again when free.
   */
  get clientMetadata(): OAuthClientMetadata {
    const redirect = this.loopback.url ?? this.registeredRedirect();
    return {
      client_name: this.front.clientName ?? 'MCP Agent',
      redirect_uris: redirect ? [redirect] : [],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  /**
   * Opens the loopback listener for a sign-in about to start (the server answered 401), on the port registered
   * last time when it is free: it listens only while an authorization may need it.
   */
  async prepare(): Promise<void> {
    await this.load();
    await this.loopback.open(portOf(this.registeredRedirect()));
  }

  /**
   * The SDK's auth() awaits this before it reads `redirectUrl`: a sign-in the SDK started itself (a 401 in the
   * middle of a session) opens the listener here.
   */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    await this.prepare();
    return this.discovery;
  }

  private registeredRedirect(): string | undefined {
    const client = this.record?.client;
    return client && 'redirect_uris' in client ? client.redirect_uris[0] : undefined;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  state(): string {
    this.flowState = randomBytes(24).toString('base64url');
    return this.flowState;
  }

  async clientInformation(ctx?: IssuerContext): Promise<StoredOAuthClientInformation | undefined> {
    const client = this.of(await this.load(), ctx).client;
    // Registered for another redirect URI (the last port was taken): register again rather than be refused.
    if (client && 'redirect_uris' in client && this.loopback.url && !client.redirect_uris.includes(this.loopback.url)) return undefined;
    return client;
  }

  async saveClientInformation(client: StoredOAuthClientInformation, ctx?: IssuerContext): Promise<void> {
    await this.saveFor(ctx, { client });
  }

  /** Without a context (the transport's bearer token for each request): the tokens saved last. */
  async tokens(ctx?: IssuerContext): Promise<StoredOAuthTokens | undefined> {
    const tokens = this.of(await this.load(), ctx).tokens;
    // A refresh keeps the old scope: asked for more, the flow must go to the person instead.
    if (tokens && this.steppingUp) return { ...tokens, refresh_token: undefined };
    return tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: IssuerContext): Promise<void> {
    this.steppingUp = false;
    await this.saveFor(ctx, { tokens });
    // The flow that needed what was discovered (its callback leg checks the code came from that issuer) is over.
    // The next authorization (a 401 later on) discovers afresh: the resource may now name another authorization
    // server, which must then be registered with (SEP-2352; conformance auth/authorization-server-migration).
    this.discovery = undefined;
    if (!this.pending) this.loopback.close();
  }

  /** The server answered 403 insufficient_scope: the next authorization asks the person for the wider scope. */
  stepUp(): void {
    this.steppingUp = true;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    checkAuthorizationUrl(url);
    const state = url.searchParams.get('state') ?? this.flowState;
    if (!state) throw new OAuthProblem('the authorization URL carries no state; refused', 'refused');
    // Listening before the browser opens: a fast authorization server may redirect at once.
    const code = this.loopback.expect(state, this.front.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    code.catch(() => undefined);
    let yes: boolean;
    try {
      yes = await this.front.authorize({ server: this.server, serverUrl: this.serverUrl, host: url.host, url });
    } catch (err) {
      this.loopback.close();
      throw err;
    }
    if (!yes) {
      this.loopback.close();
      throw new OAuthProblem(`it asks you to sign in at ${url.host}, which was declined; restart the server to be asked again`, 'declined');
    }
    this.pending = code;
  }

  /** The answer of the redirect the person was sent on (its code and `iss`), once, if one is under way. */
  takeAuthorizationCode(): Promise<AuthorizationResponse> | undefined {
    const pending = this.pending;
    this.pending = undefined;
    return pending;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new OAuthProblem('no authorization was started here (no PKCE verifier)', 'failed');
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') this.verifier = undefined;
    if (scope === 'discovery' || scope === 'all') this.discovery = undefined;
    if (scope === 'verifier' || scope === 'discovery') return;
    const record = await this.load();
    const keep = (c: IssuerCredentials): IssuerCredentials => (scope === 'all' ? {} : scope === 'client' ? { tokens: c.tokens } : { client: c.client });
    const issuers = record.issuers && Object.fromEntries(Object.entries(record.issuers).map(([k, c]) => [k, keep(c)]));
    await this.save({ ...keep(record), ...(issuers ? { issuers } : {}) });
  }

  /** Stops listening for redirects. */
  close(): void {
    this.pending = undefined;
    this.loopback.close();
  }

  /** The credentials of one authorization server, or those in use when the SDK names none. */
  private of(record: OAuthRecord, ctx: IssuerContext): IssuerCredentials {
    const issuer = ctx?.issuer;
    if (!issuer) return record;
    const kept = record.issuers?.[issuer];
    if (kept) return kept;
    // Saved before credentials were kept per issuer: the SDK checks the stamp (none, or this issuer's) itself.
    const stamped = (v: { issuer?: string } | undefined): boolean => !v?.issuer || v.issuer === issuer;
    return { client: stamped(record.client) ? record.client : undefined, tokens: stamped(record.tokens) ? record.tokens : undefined };
  }

  /** Saves `change` as the credentials in use, and as those of its authorization server when the SDK names it. */
  private async saveFor(ctx: IssuerContext, change: IssuerCredentials): Promise<void> {
    const record = await this.load();
    const issuer = ctx?.issuer;
    const next: OAuthRecord = { ...record, ...change };
    if (issuer) next.issuers = { ...record.issuers, [issuer]: { ...this.of(record, ctx), ...change } };
    await this.save(next);
  }

  private async load(): Promise<OAuthRecord> {
    this.record ??= (await this.front.store.read(this.serverUrl)) ?? {};
    return this.record;
  }

  private async save(record: OAuthRecord): Promise<void> {
    this.record = record;
    await this.front.store.write(this.serverUrl, record);
  }
}

function portOf(uri: string | undefined): number | undefined {
  if (!uri) return undefined;
  try {
    const url = new URL(uri);
    return url.hostname === '127.0.0.1' && url.port ? Number(url.port) : undefined;
  } catch {
    return undefined;
  }
}
