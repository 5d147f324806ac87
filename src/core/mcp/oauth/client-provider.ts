import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { checkAuthorizationUrl } from './authorization-url';
import type { OAuthFrontEnd } from './front-end';
import { LoopbackRedirect } from './loopback-redirect';
import { OAuthProblem } from './oauth-errors';
import type { OAuthRecord } from './oauth-store';

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/**
 * The host's side of OAuth 2.1 for one remote server, as the SDK's `OAuthClientProvider`: the SDK does
 * discovery, registration, PKCE, resource indicators, token exchange and refresh; this keeps what it
 * hands over (in the front end's store), checks the authorization URL, asks the person through the
 * front end, and catches the redirect on loopback (loopback-redirect.ts).
 */
export class HostOAuthProvider implements OAuthClientProvider {
  private readonly loopback = new LoopbackRedirect();
  private record: OAuthRecord | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private verifier: string | undefined;
  private flowState: string | undefined;
  private pending: Promise<string> | undefined;
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

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.front.clientName ?? 'MCP Agent',
      redirect_uris: this.loopback.url ? [this.loopback.url] : [],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  /**
   * The SDK's auth() asks for this first, before it reads `redirectUrl`: the one awaited moment to open
   * the loopback listener, so it is open only while an authorization may need it.
   */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    const client = (await this.load()).client;
    const registered = client && 'redirect_uris' in client ? client.redirect_uris[0] : undefined;
    await this.loopback.open(portOf(registered));
    return this.discovery;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  state(): string {
    this.flowState = randomBytes(24).toString('base64url');
    return this.flowState;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const client = (await this.load()).client;
    // Registered for another redirect URI (the last port was taken): register again rather than be refused.
    if (client && 'redirect_uris' in client && this.loopback.url && !client.redirect_uris.includes(this.loopback.url)) return undefined;
    return client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.save({ ...(await this.load()), client });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const tokens = (await this.load()).tokens;
    // A refresh keeps the old scope: asked for more, the flow must go to the person instead.
    if (tokens && this.steppingUp) return { ...tokens, refresh_token: undefined };
    return tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.steppingUp = false;
    await this.save({ ...(await this.load()), tokens });
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

  /** The code of the redirect the person was sent on, once, if one is under way. */
  takeAuthorizationCode(): Promise<string> | undefined {
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
    const next: OAuthRecord = scope === 'all' ? {} : scope === 'client' ? { tokens: record.tokens } : { client: record.client };
    await this.save(next);
  }

  /** Stops listening for redirects. */
  close(): void {
    this.pending = undefined;
    this.loopback.close();
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
