/**
 * The host's own request path beside the SDK client, for the Tasks extension (io.modelcontextprotocol/tasks) in the
 * 2026-07-28 era: the SDK's codecs refuse a `tools/call` answered `resultType: "task"` and know nothing of
 * tasks/get, tasks/update or tasks/cancel, so ext-tasks asks its host for a `rawDispatch` that owns request ids and
 * matches answers (its adapter adds the `_meta` envelope, v2RequestFraming). This is that coordinator, as small as it
 * can be: it sends on the session's transport (whose HTTP side derives Mcp-Method and Mcp-Name from the envelope in
 * the body) and takes back the answers and progress that are its own before the SDK sees them.
 *
 * Its ids are strings with a prefix of their own, so they never meet the SDK's numeric ids on the same session.
 */
import { SdkError, SdkErrorCode, type JSONRPCMessage, type Progress, type TransportSendOptions } from '@modelcontextprotocol/client';
import type { DispatchOptions, JsonRpcResponse } from '@modelcontextprotocol/ext-tasks/client';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';

type Token = string | number;
type Send = (message: JSONRPCMessage, options?: TransportSendOptions) => Promise<void>;

interface Waiting {
  resolve(response: JsonRpcResponse): void;
  reject(err: unknown): void;
  /** Starts the request's time limit again (progress on its token). */
  progressed(): void;
}

const ID_PREFIX = 'mcp-agent-task-';

export class RawRequests {
  private next = 0;
  private readonly waiting = new Map<string, Waiting>();
  /** Progress token -> the request it belongs to, while that request waits. */
  private readonly tokens = new Map<Token, string>();
  /** Progress token -> who reports it (the tool call that put the token in its `_meta`). */
  private readonly followers = new Map<Token, (progress: Progress) => void>();
  private closed: unknown;

  /**
   * `send` puts a message on the wire (the transport under the SDK's guard, which would count the token as the
   * SDK's); `perRequestStream`: a transport where closing a request's stream is how it is cancelled (HTTP).
   */
  constructor(
    private readonly send: Send,
    private readonly perRequestStream: () => boolean,
  ) {}

  /** A fresh progress token for a call whose progress goes to `onProgress` until the returned function is called. */
  follow(onProgress: (progress: Progress) => void): { token: string; unfollow: () => void } {
    const token = `${ID_PREFIX}progress-${++this.next}`;
    this.followers.set(token, onProgress);
    return { token, unfollow: () => this.followers.delete(token) };
  }

  /** True when `message` was this coordinator's (an answer to one of its requests, progress on one of its tokens). */
  take(message: JSONRPCMessage): boolean {
    if ('method' in message) {
      if (message.method !== 'notifications/progress') return false;
      const params = message.params as ({ progressToken?: Token } & Progress) | undefined;
      const token = params?.progressToken;
      if (token === undefined || (!this.followers.has(token) && !this.tokens.has(token))) return false;
      const request = this.tokens.get(token);
      if (request !== undefined) this.waiting.get(request)?.progressed();
      this.followers.get(token)?.({ progress: params!.progress, total: params!.total, message: params!.message });
      return true;
    }
    const id = 'id' in message ? message.id : undefined;
    if (typeof id !== 'string' || !id.startsWith(ID_PREFIX)) return false;
    const waiting = this.waiting.get(id);
    if (!waiting) return true; // An answer that came after we gave up on it.
    if ('result' in message) waiting.resolve({ kind: 'result', result: message.result as JsonValue });
    else if ('error' in message) waiting.resolve({ kind: 'error', error: message.error as never });
    return true;
  }

  /**
   * Sends `request` and resolves with its answer. The limit is `context.requestTimeoutMs` (started again by progress
   * when asked). An aborted `signal` gives up at once; only a `tools/call` is cancelled on the wire then (before its
   * answer there is no task; a task is cancelled with tasks/cancel alone, never by cancelling a request about it).
   */
  dispatch(request: JsonValue, options: DispatchOptions = {}): Promise<JsonRpcResponse> {
    if (this.closed !== undefined) return Promise.reject(this.closed);
    const { method, params } = request as { method: string; params?: { _meta?: { progressToken?: Token } } };
    const id = `${ID_PREFIX}${++this.next}`;
    const token = params?._meta?.progressToken;
    const signal = options.signal;
    const limitMs = options.context?.requestTimeoutMs;
    const stream = new AbortController();
    return new Promise<JsonRpcResponse>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arm = (): void => {
        if (limitMs === undefined) return;
        clearTimeout(timer);
        timer = setTimeout(() => fail(new SdkError(SdkErrorCode.RequestTimeout, `${method} timed out`, { timeout: limitMs })), limitMs);
      };
      const done = (): void => {
        clearTimeout(timer);
        this.waiting.delete(id);
        if (token !== undefined) this.tokens.delete(token);
        signal?.removeEventListener('abort', onAbort);
      };
      const fail = (err: unknown): void => {
        done();
        if (method === 'tools/call') this.cancelOnWire(id, stream, err);
        reject(err);
      };
      const onAbort = (): void => fail(signal?.reason ?? new Error('aborted'));
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(id, {
        resolve: (response) => {
          done();
          resolve(response);
        },
        reject: (err) => {
          done();
          reject(err);
        },
        progressed: () => {
          if (options.context?.resetTimeoutOnProgress) arm();
        },
      });
      if (token !== undefined) this.tokens.set(token, id);
      arm();
      const message = { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) } as JSONRPCMessage;
      this.send(message, this.perRequestStream() ? { requestSignal: stream.signal } : undefined).catch((err: unknown) => this.waiting.get(id)?.reject(err));
    });
  }

  /** The session is over: every request still waiting fails with `why`, and every later one too. */
  close(why: unknown): void {
    if (this.closed !== undefined) return;
    this.closed = why;
    for (const waiting of [...this.waiting.values()]) waiting.reject(why);
    this.followers.clear();
  }

  /** stdio: notifications/cancelled; streamable HTTP: the request's stream is closed, which is its cancellation there. */
  private cancelOnWire(id: string, stream: AbortController, why: unknown): void {
    if (this.closed !== undefined) return;
    if (this.perRequestStream()) {
      stream.abort(why);
      return;
    }
    const reason = why instanceof Error ? why.message : undefined;
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, ...(reason ? { reason } : {}) } } as JSONRPCMessage;
    this.send(cancel).catch(() => undefined);
  }
}
