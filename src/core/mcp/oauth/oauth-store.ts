import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** What is kept about one server's authorization between runs. */
export interface OAuthRecord {
  /** The client as registered with the authorization server (dynamic registration or a metadata document URL). */
  client?: OAuthClientInformationMixed;
  /** Access and refresh tokens. */
  tokens?: OAuthTokens;
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
