import * as vscode from 'vscode';
import type { AuthorizationRequest, OAuthFrontEnd } from '../../core/mcp/oauth/front-end';
import { OAuthProblem } from '../../core/mcp/oauth/oauth-errors';
import { oauthKey } from '../../core/mcp/oauth/oauth-key';
import { SecretOAuthStore } from './oauth-secrets';

/**
 * Sign-in to remote MCP servers in VS Code: a modal names the authorization server's host before
 * anything opens; the browser is opened with `vscode.env.openExternal` (never a shell); sign-ins live in
 * SecretStorage. The redirect comes back to a loopback listener on 127.0.0.1 (core/mcp/oauth), as in
 * the CLI: authorization servers accept loopback redirect URIs on any port from native clients (RFC 8252),
 * while a `vscode://` URI handler would need every server to accept a custom scheme in registration, and
 * the one tested path serves both front ends. (In a remote window the loopback is on the remote side;
 * `asExternalUri` port forwarding would be the next step there.)
 */
export class VscodeOAuth implements OAuthFrontEnd {
  readonly store: SecretOAuthStore;
  /** Servers signed out of in this window: their next start does not ask again on its own. */
  private readonly signedOut = new Set<string>();

  constructor(storage: vscode.SecretStorage) {
    this.store = new SecretOAuthStore(storage);
  }

  async authorize(request: AuthorizationRequest): Promise<boolean> {
    if (this.signedOut.delete(request.serverUrl)) {
      throw new OAuthProblem('you signed out of it; "Restart Server" signs in again', 'declined');
    }
    const signIn = 'Sign In';
    const picked = await vscode.window.showInformationMessage(
      `MCP server "${request.server}" asks you to sign in at ${request.host}.`,
      {
        modal: true,
        detail: `Your browser will open ${request.url.origin}. Sign in only if you expect this server to use an account there. The sign-in is kept in VS Code's secret storage; "Sign Out of Server" forgets it.`,
      },
      signIn,
    );
    if (picked !== signIn) return false;
    const opened = await vscode.env.openExternal(vscode.Uri.parse(request.url.href, true));
    if (!opened) throw new OAuthProblem(`the browser could not be opened for ${request.host}`, 'failed');
    return true;
  }

  /**
   * Forgets the tokens for a server's URL; its next start says so instead of asking at once. The client
   * registration stays: it is no secret of the person's, and registering anew on every sign-in would
   * pile up clients at the authorization server. False when there was no sign-in to forget.
   */
  async signOut(configUrl: string): Promise<boolean> {
    const key = oauthKey(configUrl);
    const record = await this.store.read(key);
    this.signedOut.add(key);
    if (!record?.tokens) return false;
    await this.store.write(key, { client: record.client });
    return true;
  }
}
