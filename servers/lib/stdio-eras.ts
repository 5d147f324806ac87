import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * One stdio session, served in the era its client opens it with: the first message decides (server/discover or
 * the _meta envelope: 2026-07-28; initialize or anything else: 2025-11-25), then the server of that era is given
 * the session as its transport, the first message included. The process's own stdio transport stays underneath
 * (EOF, unreadable lines and the lifetime of what was asked are handled there, as before), so a 2025-11-25 client
 * sees the same bytes it always did.
 */
export class EraRouter implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private handler?: (message: JSONRPCMessage) => void;
  private decided = false;
  private readonly held: JSONRPCMessage[] = [];

  get onmessage(): ((message: JSONRPCMessage) => void) | undefined {
    return this.handler;
  }

  /** Set by the server as it connects: what came meanwhile goes to it first, in order. */
  set onmessage(handler: ((message: JSONRPCMessage) => void) | undefined) {
    this.handler = handler;
    if (handler) queueMicrotask(() => this.flush());
  }

  constructor(
    private readonly inner: Transport,
    private readonly serve: (era: 'legacy' | 'modern', session: Transport) => Promise<void>,
    private readonly failed: (err: unknown) => void,
  ) {}

  /** What the process's transport hears: held until a server is serving, then handed on. */
  receive(message: JSONRPCMessage): void {
    if (this.handler && this.held.length === 0) return this.handler(message);
    this.held.push(message);
    if (this.decided) return;
    this.decided = true;
    this.serve(opensModernSession(message) ? 'modern' : 'legacy', this).then(() => this.flush(), this.failed);
  }

  private flush(): void {
    const handler = this.handler;
    if (!handler) return;
    for (const message of this.held.splice(0)) handler(message);
  }

  // The process's transport is started before the first message can arrive: the server's start() has nothing to do.
  async start(): Promise<void> {}

  send(message: JSONRPCMessage): Promise<void> {
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * Whether the first message a stdio client sends opens a 2026-07-28 session (server/discover, or the _meta
 * envelope). Here, not in modern-bridge.ts: a 2025-11-25 session must not load the v2 package to be told so.
 */
export function opensModernSession(message: unknown): boolean {
  const m = message as { method?: unknown; params?: { _meta?: Record<string, unknown> } } | undefined;
  if (m?.method === 'server/discover') return true;
  return typeof m?.params?._meta?.['io.modelcontextprotocol/protocolVersion'] === 'string';
}
