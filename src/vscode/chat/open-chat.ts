import type { ChatHistory } from '../../core/chat/chat-history';
import { newChatId, newMeta, type ChatMeta } from '../../core/chat/chat-meta';
import type { ChatSession } from '../../core/chat/chat-session';
import { pageEvent, pageEvents } from '../../core/chat/chat-format';
import type { ChatEvent, HostMessage } from '../../common/protocol';
import type { ChatViews } from './chat-views';

export interface OpenChatDeps {
  history: ChatHistory;
  /** Runs once before the first chat is opened (e.g. bringing an older chat into the history). */
  beforeFirstOpen?: () => Promise<unknown>;
  /** A session of this chat with the controller's tools, approvals, checkpoints and review. */
  make(meta: ChatMeta): ChatSession;
  /** The model a new chat is started with. */
  model(): string;
  views: ChatViews;
  /** Another chat is now the open one: what belonged to the last one (its views' context) goes. */
  switched(): void;
  /** Each event of the open chat, after the pages got it. */
  onEvent(event: ChatEvent): void;
  /** The open chat's state changed (busy, title, totals): the pages are sent the state again. */
  stateChanged(): void;
  /** A chat was created, renamed, deleted or opened, or its totals changed. */
  chatsChanged(): void;
}

/**
 * Which chat is open: one ChatSession at a time, at first the workspace's latest; only its events reach the
 * pages. Switching stops a turn running in the chat left, which finishes there and then lets the chat go.
 */
export class OpenChat {
  private open: ChatSession | undefined;
  private opening: Promise<ChatSession> | undefined;
  private unsubscribe: Array<() => void> = [];
  /** What the running turn waits for now, for a page that loads mid-turn (it would otherwise show only "Working…"). */
  private waitingOn: Extract<HostMessage, { type: 'activity' }> | undefined;

  constructor(private readonly deps: OpenChatDeps) {}

  /** The open chat, once one is (undefined before the first page or command asked for it). */
  get session(): ChatSession | undefined {
    return this.open;
  }

  get activity(): Extract<HostMessage, { type: 'activity' }> | undefined {
    return this.waitingOn;
  }

  /** The open chat: at first the workspace's most recent one, or a new one. */
  current(): Promise<ChatSession> {
    if (this.open) return Promise.resolve(this.open);
    this.opening ??= (async () => {
      await this.deps.beforeFirstOpen?.();
      const latest = await this.deps.history.latest().catch(() => undefined);
      const session = this.deps.make(latest ?? newMeta(newChatId(), this.deps.model()));
      this.show(session, false);
      return session;
    })();
    return this.opening;
  }

  /** Starts a new chat; the one open stays in the history (unless it is still empty: then it is the new one). */
  async newChat(): Promise<void> {
    const session = await this.current();
    if (session.events.length === 0 && !session.busy) return;
    session.stop();
    this.show(this.deps.make(newMeta(newChatId(), this.deps.model())));
  }

  /** Opens a chat from the history. */
  async openChat(id: string): Promise<void> {
    if (this.open?.id === id) return;
    const meta = await this.deps.history.get(id);
    if (!meta) throw new Error('That chat no longer exists.');
    this.open?.stop();
    const session = this.deps.make(meta);
    await session.load();
    this.show(session);
  }

  /** Renames a chat; the open one through its session, so its next save keeps the new title. */
  async renameChat(id: string, title: string): Promise<void> {
    if (this.open?.id === id) this.open.rename(title);
    else await this.deps.history.rename(id, title);
    this.deps.chatsChanged();
  }

  /** Deletes a chat; deleting the open one opens a fresh chat in its place. */
  async deleteChat(id: string): Promise<void> {
    if (this.open?.id === id) {
      this.open.stop();
      await this.open.flush();
      this.show(this.deps.make(newMeta(newChatId(), this.deps.model())));
    }
    await this.deps.history.delete(id);
    this.deps.chatsChanged();
  }

  /** Makes `session` the one shown: only its events reach the pages from now on. */
  private show(session: ChatSession, replay = true): void {
    const { views } = this.deps;
    for (const off of this.unsubscribe.splice(0)) off();
    this.deps.switched();
    // The chat left finishes its turn, if one runs, and lets go of its file for another window or the CLI.
    if (this.open && this.open !== session) void this.open.close();
    this.open = session;
    this.waitingOn = undefined;
    this.opening = Promise.resolve(session);
    this.unsubscribe.push(
      session.on('event', (event) => {
        views.broadcast({ type: 'event', event: pageEvent(event) });
        this.deps.onEvent(event);
      }),
      session.on('transient', (output) => {
        if (output.type === 'activity') this.waitingOn = output;
        views.broadcast(output);
      }),
      session.on('busy', (busy) => {
        if (!busy) this.waitingOn = undefined;
        this.deps.stateChanged();
      }),
      session.on('rewound', (events) => views.broadcast({ type: 'replay', events: pageEvents(events) })),
      session.on('meta', () => {
        this.deps.stateChanged();
        this.deps.chatsChanged();
      }),
    );
    if (replay) views.broadcast({ type: 'replay', events: pageEvents(session.events) });
    this.deps.stateChanged();
    this.deps.chatsChanged();
  }

  dispose(): void {
    this.open?.dispose();
    for (const off of this.unsubscribe.splice(0)) off();
  }
}
