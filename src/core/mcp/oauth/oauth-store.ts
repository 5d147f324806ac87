import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';

/** One authorization server's credentials for a server, kept as the SDK hands them over (its `issuer` stamp included). */
export interface IssuerCredentials {
  /** The client as registered with the authorization server (dynamic registration or a metadata document URL). */
  client?: StoredOAuthClientInformation;
  /** Access and refresh tokens. */
  tokens?: StoredOAuthTokens;
}

/**
 * What is kept about one server's authorization between runs: the credentials in use, and those of each
 * authorization server it was signed in at, by issuer (credentials of one are never offered to another; a
 * server that moves to a new authorization server and back finds its old sign-in).
 */
export interface OAuthRecord extends IssuerCredentials {
  issuers?: Record<string, IssuerCredentials>;
}

/**
 * Where a front end keeps authorizations, keyed by the server's URL: a 0600 file for the CLI
 * (cli/oauth.ts), SecretStorage for VS Code (vscode/oauth-secrets.ts). The PKCE verifier is not stored:
 * the redirect is caught by the same process that started the flow, so it never needs to outlive it.
 */
export interface OAuthStore {
  read(serverUrl: string): Promise<OAuthRecord | undefined>;
  write(serverUrl: string, record: OAuthRecord): Promise<void>;
  forget(serverUrl: string): Promise<void>;
}

/** A store that forgets everything when the process ends (tests, the conformance adapter). */
export class MemoryOAuthStore implements OAuthStore {
  private readonly records = new Map<string, OAuthRecord>();

  async read(serverUrl: string): Promise<OAuthRecord | undefined> {
    const r = this.records.get(serverUrl);
    return r && structuredClone(r);
  }

  async write(serverUrl: string, record: OAuthRecord): Promise<void> {
    this.records.set(serverUrl, structuredClone(record));
  }

  async forget(serverUrl: string): Promise<void> {
    this.records.delete(serverUrl);
  }
}
