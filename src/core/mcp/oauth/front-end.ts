import type { OAuthStore } from './oauth-store';

/** What the person is asked before their browser goes to an authorization server. */
export interface AuthorizationRequest {
  /** The MCP server's name. */
  server: string;
  /** The MCP server's URL as fetched: the key its sign-in is kept under (oauth-key.ts). */
  serverUrl: string;
  /** The authorization server's host: what the person decides on (the URL itself is long and opaque). */
  host: string;
  /** Where the browser goes; already checked to be https (or http on this machine). */
  url: URL;
}

/** How a front end (the CLI, VS Code) takes part in OAuth: where authorizations are kept and how the person is asked. */
export interface OAuthFrontEnd {
  store: OAuthStore;
  /**
   * Shows `host` and, on a yes, sends the person's browser to `url` (never through a shell). Resolves
   * false when they said no; resolving true does not wait for them to finish.
   */
  authorize(request: AuthorizationRequest): Promise<boolean>;
  /** How long the person has to finish signing in. Default 5 min. */
  timeoutMs?: number;
  /** The https URL of this client's published metadata document, for authorization servers that take one instead of registration. */
  clientMetadataUrl?: string;
  /** The client name shown by the authorization server. Default "MCP Agent". */
  clientName?: string;
}
