import type Anthropic from '@anthropic-ai/sdk';
import type { ApprovalStore } from '../tool-call/approval-policy';
import type { AgentOutput, ApprovalRequest, AskApproval, ToolHost } from '../agent/types';
import { EgressGuard } from '../egress/egress-guard';
import { ChatLabels } from '../egress/chat-labels';
import type { ShadowGit } from '../checkpoint/shadow-git';
import { TypedEmitter } from '../mcp/typed-emitter';
import type { ChatStore } from './chat-store';
import type { ChatEvent, TurnUsage } from '../../common/protocol';
import { readMeta, withTurnUsage, writeMeta, type ChatMeta } from './chat-meta';
import { ChatLock, describeWriter, type ChatWriter, type Claim } from './chat-lock';
import { CHAT_FORMAT } from './chat-format';
import { openTurnId, readChat, type UnreadableLines } from './chat-read';
import { afterCompaction } from './message-spans';
import { messageOf } from '../../node/error-message';

export interface ChatSessionDeps {
  meta: ChatMeta;
  store: ChatStore;
  host: ToolHost;
  workspace: string | undefined;
  approvals: ApprovalStore;
  /** The workspace's snapshots, for turns that change files; unset: no checkpoints. */
  checkpoints?: ShadowGit;
  log?: (message: string) => void;
  /**
   * A front end that asks in its own way (a terminal): called for each approval, its answer
   * settles it. Without it the approval waits for answer() (a card in the chat).
   */
  ask?: AskApproval;
  /** A front end's own way of showing an approval besides the card (e.g. a diff editor for a file change). */
  onApprovalShown?: (request: ApprovalRequest) => void;
  onApprovalSettled?: (request: ApprovalRequest) => void;
  /** The front end, in words ("VS Code", "the CLI"): another one that finds this chat being written is told who writes it. */
  frontEnd?: string;
}

export interface ChatSessionEvents {
  /** A chat event: persisted, and shown. */
  event: (event: ChatEvent) => void;
  /** Streaming text and tool progress: shown, not persisted. */
  transient: (output: Exclude<AgentOutput, { type: 'event' }>) => void;
  /** A turn started or ended. */
  busy: (busy: boolean) => void;
  /** The title, model or token totals changed (and were saved). */
  meta: (meta: ChatMeta) => void;
  /** The chat went back to an earlier message (edit, regenerate): these are all its events now. */
  rewound: (events: readonly ChatEvent[]) => void;
  [event: string]: (...args: never[]) => void;
}

/**
 * One chat as a front end holds it: its events (what the person sees) and messages (what the model sees), in
 * memory and on disk as they happen, its meta, the labels of what it holds (for the egress guard), and the lock
 * that makes one front end its writer (the others only show it). ChatSession runs its turns.
 */
export class StoredChat extends TypedEmitter<ChatSessionEvents> {
  private loaded: Promise<void> | undefined;
  protected eventList: ChatEvent[] = [];
  protected history: Anthropic.MessageParam[] = [];
  protected meta: ChatMeta;
  private metaWrite: Promise<void> = Promise.resolve();
  /** What may leave the machine: the hosts the person named are read from this chat's own messages. */
  protected readonly egress: EgressGuard;
  /** One writer per chat: this session writes the chat only while it holds the lock. */
  protected readonly lock: ChatLock;
  /** Who writes the chat instead of this session (it then only shows it), as last found. */
  protected otherWriter: ChatWriter | undefined;
  private metaError: Error | undefined;

  constructor(protected readonly deps: ChatSessionDeps) {
    super();
    this.meta = deps.meta;
    this.egress = new EgressGuard({
      personText: () => this.personText(),
      store: deps.approvals,
      labels: new ChatLabels(deps.store.labels),
      servers: () => deps.host.statuses?.() ?? [],
    });
    this.lock = new ChatLock(deps.store.dir, deps.frontEnd ?? 'MCP Agent');
  }

  /** What the person typed in this chat, oldest first (an MCP prompt counts as the command they typed). */
  private personText(): string[] {
    // A view's message is the view's: naming a host there vouches for nothing.
    return this.eventList.flatMap((e) => (e.kind === 'user' && e.app === undefined ? [e.text] : []));
  }

  get id(): string {
    return this.meta.id;
  }

  get info(): ChatMeta {
    return this.meta;
  }

  get events(): readonly ChatEvent[] {
    return this.eventList;
  }

  get messages(): readonly Anthropic.MessageParam[] {
    return this.history;
  }

  /** Who writes this chat while this session only shows it (another window, the CLI); undefined while this session may write it. */
  get writtenBy(): ChatWriter | undefined {
    return this.otherWriter;
  }

  /** Why some of this chat is not on disk (a write failed, and writing it whole again failed too). */
  get saveError(): Error | undefined {
    return this.deps.store.saveError ?? this.metaError;
  }

  /**
   * Reads the saved chat once, and becomes its writer unless another front end is (then the chat is only shown,
   * as it was saved, until that one lets go: see claimChat()).
   */
  load(): Promise<void> {
    this.loaded ??= (async () => {
      const claim = await this.lock.claim().catch((err: unknown) => {
        // No lock can be made (a full disk): the chat is written unguarded, and the writes say how they fare.
        this.deps.log?.(`could not lock the chat for writing: ${messageOf(err)}`);
        return { ok: true } as Claim;
      });
      this.otherWriter = claim.ok ? undefined : claim.holder;
      await this.read(claim.ok ? claim.tookOver : undefined);
    })();
    return this.loaded;
  }

  /**
   * Reads what is on disk. The writer also says what it found: lines it could not read (moved aside), and a turn
   * left open, with the reason that is known: a write of it failed, or its writer ended during it.
   */
  private async read(endedWriter: ChatWriter | undefined): Promise<void> {
    const writes = this.otherWriter === undefined;
    const { events, messages, migrated, unreadable } = await readChat(this.deps.store, this.meta.format, writes);
    this.eventList = events;
    this.history = messages;
    // The chat's labels: the secrets it holds as stored, the rest read again from what it holds.
    await this.egress.labels.load();
    this.egress.labels.restore(messages, this.personText());
    for (const u of unreadable) this.notice('warning', unreadableNotice(u, this.deps.store.dir));
    if (!writes) {
      this.notice(
        'info',
        `This chat is being written by ${describeWriter(this.otherWriter!)}: it is shown as it was saved, and what you send is refused until that one closes it (or start a new chat).`,
      );
      return;
    }
    // Not a use of the chat: its place in the history stays.
    if (migrated) this.updateMeta({ format: CHAT_FORMAT, updatedAt: this.meta.updatedAt });
    const unsaved = await this.deps.store.takeUnsavedMark();
    const open = openTurnId(events);
    const why = unsaved
      ? `Not saved: this chat could not be written to disk${unsaved.at ? ` at ${unsaved.at}` : ''}${unsaved.error ? ` (${unsaved.error})` : ''}, so what came after is missing.`
      : endedWriter
        ? `Interrupted: ${describeWriter(endedWriter)} ended during this turn.`
        : 'Interrupted: the chat closed during this turn.';
    if (open) this.record({ kind: 'turn_end', turnId: open, status: 'stopped', error: why });
    else if (unsaved) this.notice('warning', why);
  }

  /**
   * Makes this session the chat's writer before it changes the chat: when another front end wrote it meanwhile,
   * the chat is read again (and shown again). False, and said, while another one still writes it.
   */
  protected async claimChat(): Promise<boolean> {
    await this.load();
    if (!this.otherWriter) return true;
    const claim = await this.lock.claim();
    if (!claim.ok) {
      this.otherWriter = claim.holder;
      this.notice('warning', `This chat is being written by ${describeWriter(claim.holder)}: nothing was sent. Close it there first, or start a new chat.`);
      return false;
    }
    this.otherWriter = undefined;
    const fresh = await readMeta(this.deps.store.dir);
    if (fresh) this.meta = fresh;
    await this.read(claim.tookOver);
    this.emit('rewound', this.eventList);
    this.emit('meta', this.meta);
    return true;
  }

  /** A title the person chose; the first message no longer names the chat. */
  rename(title: string): void {
    const clean = title.replace(/\s+/g, ' ').trim().slice(0, 200);
    if (clean) this.updateMeta({ title: clean, renamed: true });
  }

  /** Tokens spent for this chat outside its turns (a server's sampling request), counted with its totals. */
  countUsage(usage: TurnUsage): void {
    this.addUsage(usage);
  }

  notice(level: 'info' | 'warning' | 'error', text: string, action?: 'setKey'): void {
    this.record({ kind: 'notice', level, text, ...(action ? { action } : {}) });
  }

  /** A slash command's answer: shown as lines, kept with the chat, never sent to the model. */
  listing(lines: string[]): void {
    this.record({ kind: 'notice', level: 'info', text: lines.join('\n'), listing: true });
  }

  checkpoint(turnId: string): Extract<ChatEvent, { kind: 'checkpoint' }> | undefined {
    return this.eventList.find((e): e is Extract<ChatEvent, { kind: 'checkpoint' }> => e.kind === 'checkpoint' && e.turnId === turnId);
  }

  /** Waits for what is being written; a log a write failed is written whole once more. The chat stays usable. */
  async flush(): Promise<void> {
    const { events, messages } = this.deps.store;
    await Promise.all([events.flush(), messages.flush(), this.deps.store.labels.flush(), this.metaWrite]);
    if (this.otherWriter || !this.deps.store.saveError) return;
    await Promise.all([events.lastError && events.replace(this.eventList), messages.lastError && messages.replace(this.history)]);
    // Whole again: the note of the failure would make the next open say something is missing.
    if (!this.saveError) await this.deps.store.takeUnsavedMark();
  }

  protected record(event: ChatEvent): void {
    // A session that only shows the chat keeps what it says in memory: the chat on disk is another's.
    if (this.otherWriter) {
      this.eventList.push(event);
      this.emit('event', event);
      return;
    }
    if (event.kind === 'compaction') {
      // The conversation's start was replaced by a summary: the messages' spans move with it (message-spans.ts).
      this.eventList = [...afterCompaction(this.eventList, event.replaced), event];
      void this.deps.store.events.replace(this.eventList);
    } else {
      this.eventList.push(event);
      void this.deps.store.events.append(event);
    }
    if (event.kind === 'user' || event.kind === 'turn_end') this.updateMeta({});
    this.emit('event', event);
  }

  protected addUsage(u: TurnUsage): void {
    this.updateMeta(withTurnUsage(this.meta, u));
  }

  /** Changes the meta file (queued, so writes land in order) and tells the front end. */
  protected updateMeta(change: Partial<ChatMeta>): void {
    this.meta = { ...this.meta, updatedAt: Date.now(), ...change };
    const meta = this.meta;
    const dir = this.deps.store.dir;
    if (this.otherWriter) return void this.emit('meta', meta);
    // Told once it is on disk, so a list read on the news (the Chats view) finds it there.
    this.metaWrite = this.metaWrite
      .then(() => writeMeta(dir, meta))
      .then(
        () => (this.metaError = undefined),
        (err: unknown) => {
          this.metaError = err instanceof Error ? err : new Error(String(err));
          this.deps.log?.(`could not save the chat's details: ${String(err)}`);
          return this.deps.store.markUnsaved(this.metaError);
        },
      )
      .then(() => this.emit('meta', this.meta));
  }
}

/** What the person is told of lines of a chat's file that could not be read. */
function unreadableNotice(u: UnreadableLines, dir: string): string {
  const which = u.lines.length === 1 ? `Line ${u.lines[0]}` : `Lines ${u.lines.join(', ')}`;
  const where = `${u.file} (in ${dir})`;
  return u.keptIn
    ? `${which} of ${where} could not be read: left out of this chat, and kept in ${u.keptIn} beside it.`
    : `${which} of ${where} could not be read: left out of this chat as shown, and left in the file.`;
}
