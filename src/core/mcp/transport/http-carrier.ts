import type { StreamableHTTPReconnectionOptions } from '@modelcontextprotocol/client';
import type { Carrier } from './carrier';
import { McpStartError, ServerExited } from '../session/errors';
import { describeHttpFailure, HttpFailure } from './http-failure';
import { HttpEndpointTransport } from './http-transport';
import { fetchableUrl, safeUrl } from './http-url';
import { HostOAuthProvider } from '../oauth/client-provider';
import type { OAuthFrontEnd } from '../oauth/front-end';
import { oauthKey } from '../oauth/oauth-key';
import type { HttpServerConfig } from '../types';

export interface HttpCarrierOptions {
  /** How the SDK retries a dropped event stream when the server sent no `retry`. */
  reconnection?: StreamableHTTPReconnectionOptions;
  /** Sign-in for servers that answer 401; without it a 401 is a failure. */
  oauth?: OAuthFrontEnd;
  /** The 2026-07-28 `_meta` the sign-in probe carries, unless the server is known to speak 2025-11-25 (oauth/authorize-first.ts). */
  probeMeta?: Record<string, unknown>;
}

/** A server reached at a URL: streamable HTTP (with the HTTP+SSE fallback) or HTTP+SSE. */
export class HttpCarrier implements Carrier {
  readonly transport: HttpEndpointTransport;
  readonly target: string;
  readonly pid = undefined;
  onend?: (end: ServerExited) => void;
  private endedWith: ServerExited | undefined;
  /** The last things that went wrong, for diagnoses (an HTTP server has no stderr to quote). */
  private readonly notes: string[] = [];

  constructor(config: HttpServerConfig, options: HttpCarrierOptions = {}) {
    this.target = safeUrl(config.url);
    const { url, headers } = fetchableUrl(config.url, config.headers);
    // Credentials the person configured (an Authorization header, a user name in the URL) are theirs to manage: no OAuth on top.
    const configured = Object.keys(headers).some((k) => k.toLowerCase() === 'authorization');
    const auth = options.oauth && !configured ? new HostOAuthProvider(oauthKey(config.url), config.name, options.oauth) : undefined;
    this.transport = new HttpEndpointTransport(
      { url, mode: config.transport, headers, reconnection: options.reconnection, auth, probeMeta: options.probeMeta },
      this.target,
    );
    this.transport.onlost = (why) => {
      this.note(why);
      if (this.endedWith) return;
      this.endedWith = new ServerExited({ code: null, signal: null }, `server ${config.name}: ${why}`);
      this.onend?.(this.endedWith);
    };
  }

  get kind(): 'streamable-http' | 'sse' {
    return this.transport.kind === 'sse' ? 'sse' : 'streamable-http';
  }

  get ended(): ServerExited | undefined {
    return this.endedWith;
  }

  explain(message: string): string {
    const fellBack = this.transport.fellBackBecause;
    const via = fellBack ? ` (over HTTP+SSE: ${fellBack})` : '';
    return `${message}${via}`;
  }

  tail(): string {
    return this.notes.join('\n');
  }

  tailBytes(): { held: number; total: number } {
    const held = this.tail().length;
    return { held, total: held };
  }

  diagnoseStart(err: unknown, server: string): McpStartError | undefined {
    // The SDK's own probe (server/discover) failures come as the SDK saw them: named here the same way.
    const failure = err instanceof HttpFailure ? err : describeHttpFailure(err, 'POST to', this.target);
    if (!(err instanceof HttpFailure) && failure.status === undefined && !failure.unreachable) return undefined;
    this.note(failure.message);
    return new McpStartError(failure.unreachable ? 'unreachable' : 'protocol', `server ${server}: ${failure.message}`, { cause: err });
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  private note(line: string): void {
    this.notes.push(line);
    if (this.notes.length > 5) this.notes.shift();
  }
}
