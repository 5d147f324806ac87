import {
  SdkError,
  SdkErrorCode,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type Progress,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import type { LogFlood } from './log-flood';
import { RawRequests } from '../task-ext/raw-requests';
import { ProgressTokens } from '../requests/progress-tokens';
import { markServerError } from '../session/server-error';

/**
 * What every message from a server goes through before the SDK client sees it, whatever carries it
 * (a process's stdout, an HTTP response, an SSE stream):
 * - responses are handed over one microtask late: the SDK handles notifications one microtask late but
 *   responses at once, so a progress notification that arrives together with its response was dropped
 *   ("unknown token"); this keeps the wire order;
 * - progress for requests nobody waits for any more is dropped quietly (progress-tokens.ts);
 * - a server's error answers are remembered as the server's (server-error.ts);
 * - log notifications past the server's log budget are dropped and counted (log-flood.ts);
 * - what goes wrong beside the messages (a stdout line that is not JSON) goes to `noise`, not through the
 *   SDK, which drops such reports while it asks a server its era (server/discover) and a chatty server
 *   prints its banner just then;
 * - the answers and progress of the Tasks extension's own requests (`raw`) go to them, not to the SDK.
 */
export class GuardedTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private readonly progress = new ProgressTokens();
  /** Requests the SDK cannot carry (2026-07-28 tasks, task-ext/raw-requests.ts), sent past the SDK's progress bookkeeping. */
  readonly raw = new RawRequests(
    (message, options) => this.inner.send(message, options),
    () => this.inner.hasPerRequestStream === true,
  );

  constructor(
    readonly inner: Transport,
    private readonly logs?: LogFlood,
    private readonly noise?: (err: Error) => void,
  ) {
    // The SDK tells a stdio transport by these two (a silent server there is a legacy one; over HTTP an outage).
    if ('pid' in inner && 'stderr' in inner) {
      Object.defineProperty(this, 'pid', { get: () => (inner as { pid?: number }).pid, enumerable: true });
      Object.defineProperty(this, 'stderr', { get: () => null, enumerable: true });
    }
  }

  /** Streamable HTTP opens one stream per request: closing it is how a 2026-07-28 request is cancelled there. */
  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
      if (this.raw.take(message)) return;
      if (!this.progress.admit(message) || (this.logs && !this.logs.admit(message))) return;
      if ('id' in message && !('method' in message)) queueMicrotask(() => this.onmessage?.(markServerError(message), extra));
      else this.onmessage?.(message, extra);
    };
    this.inner.onerror = (err) => (this.noise ? this.noise(err) : this.onerror?.(err));
    this.inner.onclose = () => {
      this.raw.close(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
      this.onclose?.();
    };
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.progress.sent(message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** The progress of a task (created by a task-augmented request) goes to `onProgress`; see progress-tokens.ts. */
  followTask(taskId: string, onProgress: (progress: Progress) => void): () => void {
    return this.progress.follow(taskId, onProgress);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }
}
