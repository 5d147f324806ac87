import type * as vscode from 'vscode';
import type { OAuthRecord, OAuthStore } from '../../core/mcp/oauth/oauth-store';

const PREFIX = 'mcpAgent.oauth:';

/** Sign-ins (client registration, access and refresh tokens) in VS Code's SecretStorage (the OS keychain), one entry per server URL. */
export class SecretOAuthStore implements OAuthStore {
  constructor(private readonly storage: vscode.SecretStorage) {}

  async read(serverUrl: string): Promise<OAuthRecord | undefined> {
    const text = await this.storage.get(PREFIX + serverUrl);
    if (!text) return undefined;
    try {
      return JSON.parse(text) as OAuthRecord;
    } catch {
      // A damaged entry costs a sign-in, nothing more.
      return undefined;
    }
  }

  async write(serverUrl: string, record: OAuthRecord): Promise<void> {
    await this.storage.store(PREFIX + serverUrl, JSON.stringify(record));
  }

  async forget(serverUrl: string): Promise<void> {
    await this.storage.delete(PREFIX + serverUrl);
  }
}
