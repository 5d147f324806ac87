import type { Client, McpSubscription, ServerCapabilities, SubscriptionFilter } from '@modelcontextprotocol/client';
import { messageOf } from '../../../node/error-message';

/** How long to wait before listening again after the server dropped a stream (it was restarted, a proxy timed out). */
const RELISTEN_MS = [500, 2_000, 10_000];

/**
 * What a 2026-07-28 session listens to: the server sends no notification it was not asked for, so the list
 * changes it declares and each subscribed resource are asked for on `subscriptions/listen` streams. One stream
 * for the lists, opened with the session, and one per subscribed resource, so subscribing to one more never
 * closes the others (nothing is missed in between). A stream the server drops is opened again, a few times.
 * The notifications reach the client's handlers (session-client.ts) as a 2025-11-25 server's do.
 */
export class ListenStreams {
  private lists: Stream | undefined;
  private readonly resources = new Map<string, Stream>();
  private closed = false;

  constructor(
    private readonly client: Client,
    private readonly log: (line: string) => void,
  ) {}

  /** Asks for the list changes the server declares it sends; resolves once it acknowledged (or refused). */
  async openLists(caps: ServerCapabilities | undefined): Promise<void> {
    const filter: SubscriptionFilter = {
      ...(caps?.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(caps?.prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(caps?.resources?.listChanged ? { resourcesListChanged: true } : {}),
    };
    if (Object.keys(filter).length === 0) return;
    this.lists = new Stream(this.client, filter, 'list changes', this.log, () => this.closed);
    await this.lists.open().catch((err: unknown) => this.log(`listening for list changes failed: ${messageOf(err)}`));
  }

  /** Whether the server agreed to tell of this list's changes on the open stream. */
  watches(kind: 'tools' | 'resources' | 'prompts'): boolean {
    const honored = this.lists?.honored;
    if (!honored) return false;
    return Boolean(kind === 'tools' ? honored.toolsListChanged : kind === 'prompts' ? honored.promptsListChanged : honored.resourcesListChanged);
  }

  /** `notifications/resources/updated` for `uri` from now on; throws when the server refuses. */
  async subscribe(uri: string): Promise<void> {
    if (this.resources.has(uri)) return;
    const stream = new Stream(this.client, { resourceSubscriptions: [uri] }, `updates of ${uri}`, this.log, () => this.closed);
    this.resources.set(uri, stream);
    try {
      await stream.open();
    } catch (err) {
      this.resources.delete(uri);
      throw err;
    }
  }

  async unsubscribe(uri: string): Promise<void> {
    const stream = this.resources.get(uri);
    this.resources.delete(uri);
    await stream?.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.lists?.close(), ...[...this.resources.values()].map((s) => s.close())]);
    this.resources.clear();
  }
}

/** One `subscriptions/listen` stream, opened again when the server drops it. */
class Stream {
  private subscription: McpSubscription | undefined;
  private stopped = false;
  private drops = 0;

  constructor(
    private readonly client: Client,
    private readonly filter: SubscriptionFilter,
    private readonly what: string,
    private readonly log: (line: string) => void,
    private readonly sessionClosed: () => boolean,
  ) {}

  /** What the server agreed to send on the stream while it is open. */
  get honored(): SubscriptionFilter | undefined {
    return this.open_ ? this.subscription?.honoredFilter : undefined;
  }

  private open_ = false;

  async open(): Promise<void> {
    const subscription = await this.client.listen(this.filter);
    if (this.stopped) return void (await subscription.close());
    this.subscription = subscription;
    this.open_ = true;
    void subscription.closed.then((how) => {
      this.open_ = false;
      this.ended(how);
    });
  }

  async close(): Promise<void> {
    this.stopped = true;
    await this.subscription?.close().catch(() => undefined);
  }

  private ended(how: 'local' | 'graceful' | 'remote'): void {
    if (how === 'local' || this.stopped || this.sessionClosed()) return;
    const wait = RELISTEN_MS[this.drops++];
    if (wait === undefined) {
      this.log(`the server ended the stream of ${this.what} ${RELISTEN_MS.length + 1} times; not listening again until it restarts`);
      return;
    }
    this.log(`the server ended the stream of ${this.what} (${how}); listening again in ${wait} ms`);
    setTimeout(() => {
      if (this.stopped || this.sessionClosed()) return;
      this.open().catch((err: unknown) => this.log(`listening again for ${this.what} failed: ${messageOf(err)}`));
    }, wait).unref();
  }
}
