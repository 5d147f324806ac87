import {
  isInitializeRequest,
  SSEClientTransport,
  SseError,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type FetchLike,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type StreamableHTTPReconnectionOptions,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { describeHttpFailure, HttpFailure } from './http-failure';
import { authorizeFirst } from '../oauth/authorize-first';
import { discoveryFetch } from '../oauth/discovery-fetch';
import type { HostOAuthProvider } from '../oauth/client-provider';
import { watchPostStreams } from './post-stream-watch';
import { hostErrorAnswer } from '../session/server-error';

export interface HttpTransportParams {
  url: URL;
  /** `http`: streamable HTTP, falling back to HTTP+SSE when the first POST gets a 4xx; `sse`: HTTP+SSE only. */
  mode: 'http' | 'sse';
  headers?: Record<string, string>;
  /** How the SDK retries a dropped event stream when the server sent no `retry` (Last-Event-ID is sent either way). */
  reconnection?: StreamableHTTPReconnectionOptions;
  /** How long after a response stream ended its last events may still be on their way to the client. Default 100 ms. */
  streamEndGraceMs?: number;
  /** OAuth for a server that answers 401 (oauth/client-provider.ts); without it a 401 is a failure. */
  auth?: HostOAuthProvider;
  /** Sends the sign-in probe as a 2026-07-28 request with this `_meta` (authorize-first.ts); unset: the 2025-11-25 form. */
  probeMeta?: Record<string, unknown>;
}

/**
 * MCP over HTTP, as the SDK `Transport`: the SDK's streamable HTTP client (resumption with Last-Event-ID
 * and the server's `retry` are the SDK's; so are the 2026-07-28 framing: the `Mcp-Method`, `Mcp-Name` and
 * `Mcp-Param-*` headers, and cancelling a request by closing its stream), its fallback to the older
 * HTTP+SSE transport, and what a host must add on top:
 * - the fallback itself: the first POST of `initialize` answered 4xx is sent again over HTTP+SSE, within
 *   one connect, so the session above never sees the switch (a `server/discover` probe answered 4xx is
 *   the SDK's business: it falls back to initialize, which then comes here);
 * - failures with their status and the URL without credentials (http-failure.ts);
 * - `onlost` when the session is gone for good (the server forgot it, the stream could not be resumed,
 *   the server stopped answering), so the host reconnects instead of waiting;
 * - a request whose response stream ended before its answer, on a stream that cannot be resumed, fails
 *   at once rather than at its timeout (post-stream-watch.ts).
 * - OAuth: the SDK transports' `authProvider` does discovery, registration, refresh and step-up on a
 *   403 `insufficient_scope`; what the SDK leaves to its caller is here: authorizing before `initialize`
 *   (oauth/authorize-first.ts), waiting for the person's redirect and sending again after it.
 */
export class HttpEndpointTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** Called once when the HTTP session is over without close(). */
  onlost?: (why: string) => void;
  /** The transport in use: `streamable`, or `sse` (configured, or after the fallback). */
  kind: 'streamable' | 'sse';
  /** Why streamable HTTP was given up for HTTP+SSE, if it was. */
  fellBackBecause: string | undefined;
  private inner: Transport | undefined;
  private readonly shown: string;
  private readonly pending = new Set<string | number>();
  private readonly thrown = new WeakSet<object>();
  private initialized = false;
  private closed = false;
  private lost = false;
  private protocolVersion: string | undefined;
  private authorizing: Promise<void> | undefined;

  constructor(
    private readonly params: HttpTransportParams,
    shown: string,
  ) {
    this.shown = shown;
    this.kind = params.mode === 'sse' ? 'sse' : 'streamable';
  }

  async start(): Promise<void> {
    if (this.inner) throw new Error('HttpEndpointTransport already started');
    const inner = this.kind === 'sse' ? this.sse() : this.streamable();
    this.inner = inner;
    // HTTP+SSE asks for authorization on its first GET, where the SDK signs in by itself: the redirect must be listened for already.
    if (inner instanceof SSEClientTransport) await this.params.auth?.prepare();
    try {
      await inner.start();
    } catch (err) {
      this.remember(err);
      if (err instanceof UnauthorizedError && inner instanceof SSEClientTransport) return this.startSseAuthorized(inner, err);
      throw describeHttpFailure(err, 'GET of the event stream at', this.shown, this.params.url);
    }
    if (!this.params.auth || !(inner instanceof StreamableHTTPClientTransport)) return;
    try {
      await authorizeFirst(this.params.url, this.params.headers, this.params.auth, discoveryFetch(this.params.url, undefined, fetch), this.params.probeMeta);
    } catch (err) {
      throw describeHttpFailure(err, 'signing in to', this.shown, this.params.url);
    }
  }

  /** HTTP+SSE asks for authorization on its event stream's GET: once the person signed in, the stream is opened again. */
  private async startSseAuthorized(first: SSEClientTransport, err: UnauthorizedError): Promise<void> {
    const redirect = this.params.auth?.takeAuthorizationCode();
    if (!redirect) throw describeHttpFailure(err, 'GET of the event stream at', this.shown, this.params.url);
    try {
      const { code, iss } = await redirect;
      await first.finishAuth(code, iss);
      this.forget(first);
      const again = this.sse();
      this.inner = again;
      await again.start();
    } catch (second) {
      throw describeHttpFailure(second, 'GET of the event stream at', this.shown, this.params.url);
    }
  }

  /** True while the session runs over streamable HTTP: a 2026-07-28 request is then cancelled by closing its stream. */
  get hasPerRequestStream(): boolean | undefined {
    return this.inner?.hasPerRequestStream;
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const inner = this.inner;
    if (!inner || this.closed) throw new Error('Not connected');
    if ('method' in message && 'id' in message) {
      const id = message.id;
      this.pending.add(id);
      // Cancelled by closing its stream: no answer is waited for, and the stream ending is no news.
      options?.requestSignal?.addEventListener('abort', () => this.pending.delete(id), { once: true });
    }
    // A cancelled request gets no answer: nothing to wait for on its stream either.
    if ('method' in message && message.method === 'notifications/cancelled') {
      const cancelled = (message.params as { requestId?: string | number } | undefined)?.requestId;
      if (cancelled !== undefined) this.pending.delete(cancelled);
    }
    try {
      await inner.send(message, options);
    } catch (err) {
      if (err instanceof UnauthorizedError && this.params.auth) return this.sendAuthorized(inner, message, options, err);
      if ('method' in message && message.method === 'server/discover' && !this.initialized) {
        // The SDK reads the era from how the probe failed (a 4xx, a JSON-RPC error): it must see the failure as it came.
        this.remember(err);
        if ('id' in message) this.pending.delete(message.id);
        throw err;
      }
      if (this.shouldFallBack(message, err)) return this.fallBack(message, err);
      const failure = describeHttpFailure(err, 'POST to', this.shown, this.params.url);
      this.remember(err);
      if (this.initialized) this.checkLost(failure);
      if ('id' in message && 'method' in message) this.pending.delete(message.id);
      throw failure;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const inner = this.inner;
    // A streamable session is ended politely (DELETE); a server that does not support that says 405, which is fine.
    if (inner instanceof StreamableHTTPClientTransport && inner.sessionId && !this.lost) {
      await Promise.race([inner.terminateSession().catch(() => undefined), new Promise((r) => setTimeout(r, 1000).unref())]);
    }
    await inner?.close().catch(() => undefined);
    this.params.auth?.close();
  }

  /**
   * The SDK met a 401 (or a 403 asking for more scope) mid-session and sent the person to sign in: once
   * their redirect is back, its code is exchanged (once, however many requests were waiting) and the
   * message sent again.
   */
  private async sendAuthorized(inner: Transport, message: JSONRPCMessage, options: TransportSendOptions | undefined, err: UnauthorizedError): Promise<void> {
    const redirect = this.params.auth?.takeAuthorizationCode();
    const finish = (inner as { finishAuth?: (code: string, iss?: string) => Promise<void> }).finishAuth?.bind(inner);
    if (redirect && finish) this.authorizing = redirect.then((r) => finish(r.code, r.iss)).finally(() => (this.authorizing = undefined));
    try {
      if (!this.authorizing) throw err;
      await this.authorizing;
      await inner.send(message, options);
    } catch (again) {
      if ('id' in message && 'method' in message) this.pending.delete(message.id);
      throw describeHttpFailure(again, 'POST to', this.shown, this.params.url);
    }
  }

  get sessionId(): string | undefined {
    return this.inner?.sessionId;
  }

  /** Called by the SDK once the era is settled (initialize answered, or server/discover): the session is up. */
  setProtocolVersion(version: string): void {
    this.initialized = true;
    this.protocolVersion = version;
    this.inner?.setProtocolVersion?.(version);
  }

  private streamable(): StreamableHTTPClientTransport {
    const fetchWatched = watchPostStreams({
      graceMs: this.params.streamEndGraceMs ?? 100,
      onUnanswered: (ids) => this.failUnanswered(ids),
    });
    const t = new StreamableHTTPClientTransport(this.params.url, {
      ...this.requests(this.watchScope(fetchWatched)),
      reconnectionOptions: this.params.reconnection,
      authProvider: this.params.auth,
    });
    return this.wire(t);
  }

  private sse(): SSEClientTransport {
    const t = new SSEClientTransport(this.params.url, {
      ...this.requests(),
      authProvider: this.params.auth,
    });
    return this.wire(t);
  }

  /**
   * How an SDK transport sends: the config's headers on every request. With OAuth the SDK also fetches
   * what the server's metadata names and would merge those headers into it: then every request goes
   * through oauth/discovery-fetch.ts, which adds them on the server's own origin only and checks every
   * other URL before anything is sent.
   */
  private requests(base?: FetchLike): { requestInit: RequestInit; fetch?: FetchLike } {
    if (!this.params.auth) return { requestInit: { headers: this.params.headers }, fetch: base };
    return { requestInit: {}, fetch: discoveryFetch(this.params.url, this.params.headers, base ?? fetch) };
  }

  /** A 403 `insufficient_scope` must send the person to consent to more, not refresh the old scope (client-provider.ts). */
  private watchScope(base: FetchLike): FetchLike {
    const provider = this.params.auth;
    if (!provider) return base;
    return async (url, init) => {
      const response = await base(url, init);
      if (response.status === 403 && /insufficient_scope/.test(response.headers.get('www-authenticate') ?? '')) provider.stepUp();
      return response;
    };
  }

  private forget(old: Transport): void {
    old.onclose = undefined;
    old.onerror = undefined;
    old.onmessage = undefined;
    void old.close().catch(() => undefined);
  }

  private wire<T extends Transport>(t: T): T {
    t.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
      if ('id' in message && !('method' in message)) this.pending.delete(message.id as string | number);
      this.onmessage?.(message, extra);
    };
    t.onerror = (err: Error) => this.innerError(t, err);
    t.onclose = () => {
      if (t === this.inner && !this.closed) this.loseSession(`the connection to ${this.shown} closed`);
      if (t === this.inner) this.onclose?.();
    };
    return t;
  }

  private remember(thrown: unknown): void {
    if (thrown !== null && typeof thrown === 'object') this.thrown.add(thrown);
  }

  /** The SDK reports a failed send through onerror and then throws it too: one report is enough. */
  private innerError(from: Transport, err: Error): void {
    if (from !== this.inner || this.closed) return;
    setImmediate(() => {
      if (this.thrown.has(err) || this.closed) return;
      const text = err.message ?? String(err);
      if (/Maximum reconnection attempts/.test(text)) {
        this.loseSession(`the event stream from ${this.shown} dropped and could not be resumed`);
      } else if (this.kind === 'sse' && this.initialized && err instanceof SseError) {
        // The legacy transport binds the session to its one GET stream: once that drops, the session is gone
        // (the EventSource reconnecting by itself would get a new session nobody initialized).
        this.loseSession(`the event stream from ${this.shown} dropped (${describeHttpFailure(err, 'GET of', this.shown, this.params.url).message})`);
      }
      const raw = this.params.url.href;
      this.onerror?.(text.includes(raw) ? new Error(text.split(raw).join(this.shown)) : err);
    });
  }

  private shouldFallBack(message: JSONRPCMessage, err: unknown): boolean {
    if (this.params.mode !== 'http' || this.kind !== 'streamable' || this.initialized || this.closed) return false;
    if (!isInitializeRequest(message)) return false;
    const status = describeHttpFailure(err, 'POST to', this.shown, this.params.url).status;
    return status !== undefined && status >= 400 && status < 500 && status !== 401;
  }

  /** Streamable HTTP refused initialize with a 4xx: the server may be an HTTP+SSE one (spec 2025-03-26, backwards compatibility). */
  private async fallBack(message: JSONRPCMessage, err: unknown): Promise<void> {
    const first = describeHttpFailure(err, 'POST to', this.shown, this.params.url).message;
    const old = this.inner;
    if (old) {
      old.onclose = undefined;
      old.onerror = undefined;
      old.onmessage = undefined;
      await old.close().catch(() => undefined);
    }
    this.kind = 'sse';
    this.fellBackBecause = first;
    const sse = this.sse();
    this.inner = sse;
    try {
      await sse.start();
      if (this.protocolVersion) sse.setProtocolVersion(this.protocolVersion);
      await sse.send(message);
    } catch (second) {
      this.remember(second);
      const step = second instanceof SseError ? 'GET of the event stream at' : 'POST to';
      const why = describeHttpFailure(second, step, this.shown, this.params.url).message;
      throw new HttpFailure(`streamable HTTP: ${first}; then HTTP+SSE: ${why}`, describeHttpFailure(second, '', '').status, false, { cause: second });
    }
  }

  /** After initialize, the server forgetting the session (404) or going away ends it. */
  private checkLost(failure: HttpFailure): void {
    if (failure.status === 404 && this.sessionId) {
      this.loseSession(`${this.shown} no longer knows this session (HTTP 404): it was restarted or the session expired`);
    } else if (failure.unreachable) {
      this.loseSession(failure.message);
    }
  }

  private failUnanswered(ids: Array<string | number>): void {
    if (this.closed) return;
    for (const id of ids) {
      if (!this.pending.has(id)) continue;
      this.pending.delete(id);
      this.onmessage?.(hostErrorAnswer(id, `${this.shown} ended the response stream before answering, and offered no way to resume it (no event ids)`));
    }
  }

  private loseSession(why: string): void {
    if (this.lost || this.closed) return;
    this.lost = true;
    this.onlost?.(why);
  }
}
