import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { LogFlood } from './log-flood';
import { ProgressTokens } from '../progress-tokens';
import { markServerError } from '../server-error';

/**
 * What every message from a server goes through before the SDK client sees it, whatever carries it
 * (a process's stdout, an HTTP response, an SSE stream):
 * - responses are handed over one microtask late: the SDK handles notifications one microtask late but
 *   responses at once, so a progress notification that arrives together with its response was dropped
 *   ("unknown token"); this keeps the wire order;
 * - progress for requests nobody waits for any more is dropped quietly (progress-tokens.ts);
 * - a server's error answers are remembered as the server's (server-error.ts);
 * - log notifications past the server's log budget are dropped and counted (log-flood.ts).
 */
export class GuardedTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private readonly progress = new ProgressTokens();

  constructor(
    readonly inner: Transport,
    private readonly logs?: LogFlood,
  ) {}

  async start(): Promise<void> {
    this.inner.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
      if (!this.progress.admit(message) || (this.logs && !this.logs.admit(message))) return;
      if ('id' in message && !('method' in message)) queueMicrotask(() => this.onmessage?.(markServerError(message), extra));
      else this.onmessage?.(message, extra);
    };
    this.inner.onerror = (err) => this.onerror?.(err);
    this.inner.onclose = () => this.onclose?.();
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.progress.sent(message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}
