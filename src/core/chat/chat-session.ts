import type { ModelClient } from '../agent/model-client';
import type Anthropic from '@anthropic-ai/sdk';
import type { GetPromptResult } from '@modelcontextprotocol/client';
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { Agent, type Effort, type TurnInput } from '../agent/agent';
import type { ApprovalStore } from '../tool-call/approval-policy';
import type { FrozenSystem } from '../agent/frozen-system';
import type { AgentOutput, ApprovalRequest, AskApproval, ToolHost, TurnStatus } from '../agent/types';
import { TurnCheckpoint, checkpointEvent } from '../checkpoint/turn-checkpoint';
import { EgressGuard } from '../egress/egress-guard';
import type { ShadowGit } from '../checkpoint/shadow-git';
import { TypedEmitter } from '../mcp/typed-emitter';
import type { ChatStore } from './chat-store';
import type { ApprovalDecision, ChatEvent, PastedImage, TurnUsage } from '../../shared/protocol';
import { titleFrom, withTurnUsage, writeMeta, type ChatMeta } from './chat-meta';
import { CHAT_FORMAT } from './chat-format';
import { readChat } from './chat-read';
import { promptConversation } from './prompt-messages';
import { afterCompaction, rewindPoint, spanOf, type RewindMode } from './message-spans';
import { promptCommand } from './slash-commands';
import { ApprovalWaits } from './approval-waits';
import { approvedCall, type CallOutcome } from '../tool-call/approved-call';
import type { HubTool } from '../mcp/types';
import { appMessageForModel, appMessageRefusal } from '../apps/app-messages';
import { messageOf } from '../../common/error-message';
import type { ToolSearchSetting } from '../tool-offer/tool-search-mode';

/** What one turn runs with: read fresh for each turn, so a changed setting or model applies to the next. */
export interface TurnConfig {
  client: ModelClient;
  model: string;
  maxTokens: number;
  maxIterations: number;
  toolTimeoutMs: number;
  /** How the person fixes a rejected key, in their front end's words. */
  keyHint: string;
  settingNames?: { maxTokens: string; maxIterations: string };
  promptCaching?: boolean;
  /** How hard the model thinks, when the person chose a level the model supports. */
  effort?: Effort;
  /** The model's input window (from the Models API); the conversation is compacted before it outgrows it. */
  contextWindow?: number;
  /** How tools past the definition budget are found (the API's tool search or the host's); default `auto`. */
  toolSearch?: ToolSearchSetting;
}

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
 * One conversation, free of any editor: its events (what the person sees) and messages (what the
 * model sees), both persisted as they happen, the turn that is running and the approvals it waits
 * for. A front end shows it and answers its questions; it can switch to another chat while a turn
 * here still unwinds, and that turn writes only here.
 */
export class ChatSession extends TypedEmitter<ChatSessionEvents> {
  private loaded: Promise<void> | undefined;
  private eventList: ChatEvent[] = [];
  private history: Anthropic.MessageParam[] = [];
  private running: AbortController | undefined;
  private readonly approvals: ApprovalWaits;
  private meta: ChatMeta;
  private metaWrite: Promise<void> = Promise.resolve();
  /** What may leave the machine: the hosts the person named are read from this chat's own messages. */
  private readonly egress: EgressGuard;

  constructor(private readonly deps: ChatSessionDeps) {
    super();
    this.meta = deps.meta;
    this.egress = new EgressGuard({ personText: () => this.personText(), store: deps.approvals });
    this.approvals = new ApprovalWaits({ record: (e) => this.record(e), ask: deps.ask, onShown: deps.onApprovalShown, onSettled: deps.onApprovalSettled });
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

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Reads the saved chat once; a turn that was cut off (the window closed, the process died) is closed as interrupted. */
  load(): Promise<void> {
    this.loaded ??= (async () => {
      const { events, messages, migrated } = await readChat(this.deps.store, this.meta.format);
      // Not a use of the chat: its place in the history stays.
      if (migrated) this.updateMeta({ format: CHAT_FORMAT, updatedAt: this.meta.updatedAt });
      this.eventList = events;
      this.history = messages;
      const lastEnd = events.map((e) => e.kind).lastIndexOf('turn_end');
      const open = events.slice(lastEnd + 1).find((e): e is Extract<ChatEvent, { turnId: string }> => 'turnId' in e);
      if (open) this.record({ kind: 'turn_end', turnId: open.turnId, status: 'stopped', error: 'Interrupted: the chat closed during this turn.' });
    })();
    return this.loaded;
  }

  /** The person's message, shown at once; the turn runs when `config` is given (no key: only shown, with the notice). */
  async send(
    text: string,
    context: string[],
    config: TurnConfig | undefined,
    attachments: string[] = [],
    images: PastedImage[] = [],
  ): Promise<TurnStatus | undefined> {
    const started = await this.start(text, context, config, attachments, images);
    if ('refused' in started) {
      this.notice('warning', started.refused);
      return undefined;
    }
    return started.turn;
  }

  /**
   * send() for a front end that must know at once whether the message is in the chat: `refused` (a turn is
   * still running; nothing recorded, the front end keeps the message), or `turn`, which settles when it ends.
   */
  async start(
    text: string,
    context: string[],
    config: TurnConfig | undefined,
    attachments: string[] = [],
    images: PastedImage[] = [],
  ): Promise<{ refused: string } | { turn: Promise<TurnStatus | undefined> }> {
    await this.load();
    if (this.running) return { refused: STILL_RUNNING };
    // The chat shows a pasted image by name only: the picture itself goes to the model, not into the event log.
    const shown = [...attachments, ...images.map((_, i) => `${PASTED_IMAGE} ${i + 1}`)];
    this.record({ kind: 'user', id: randomUUID(), text, attachments: shown, at: Date.now(), ...(config ? { span: spanOf(this.history, 1) } : {}) });
    if (!this.meta.renamed && this.eventList.filter((e) => e.kind === 'user').length === 1) this.updateMeta({ title: titleFrom(text) });
    return { turn: config ? this.runTurn(config, { text, context, images }) : Promise.resolve(undefined) };
  }

  /**
   * An MCP prompt as the person's message: its messages join the conversation with their roles and
   * what they embed (prompt-messages.ts), the chat shows the prompt's name and messages, and the turn
   * runs when `config` is given (no key: only shown, like send()).
   */
  async sendPrompt(
    prompt: { server: string; name: string; args?: Record<string, string>; result: GetPromptResult },
    config: TurnConfig | undefined,
  ): Promise<TurnStatus | undefined> {
    await this.load();
    if (this.running) {
      this.notice('warning', STILL_RUNNING);
      return undefined;
    }
    const { server, name } = prompt;
    const { messages, shown } = promptConversation(prompt.result, `${server}/${name}`);
    const text = promptCommand(server, name, prompt.args ?? {});
    this.record({
      kind: 'user',
      id: randomUUID(),
      text,
      attachments: [],
      at: Date.now(),
      prompt: { server, name, messages: shown },
      ...(config ? { span: spanOf(this.history, messages.length) } : {}),
    });
    if (!this.meta.renamed && this.eventList.filter((e) => e.kind === 'user').length === 1) this.updateMeta({ title: titleFrom(`${server}/${name}`) });
    return config ? this.runTurn(config, { messages }) : undefined;
  }

  /** Asks again for the conversation as it stands, after a failed request. */
  async retry(config: TurnConfig): Promise<TurnStatus | undefined> {
    await this.load();
    if (this.running) return undefined;
    return this.runTurn(config, { retry: true });
  }

  /**
   * What going back to the person's message `id` would drop (the turns' file checkpoints among it, for the
   * front end to offer restoring), or why the chat cannot go back there.
   */
  async rewindPlan(id: string, mode: RewindMode): Promise<{ dropped: ChatEvent[] } | { why: string }> {
    await this.load();
    if (this.running) return { why: 'A turn is still running: stop it first.' };
    const point = rewindPoint(this.eventList, this.history.length, id, mode);
    return 'why' in point ? point : { dropped: point.dropped };
  }

  /**
   * Takes the chat back to just before the person's message `id` (edit: the new text is then sent in its place)
   * or to just after it (regenerate: its answer is asked for again). What came after goes, from the chat and
   * from what the model is sent, on disk too; the token totals keep what it cost. Returns why not, if it cannot.
   */
  async rewind(id: string, mode: RewindMode): Promise<string | undefined> {
    await this.load();
    if (this.running) return 'A turn is still running: stop it first.';
    const point = rewindPoint(this.eventList, this.history.length, id, mode);
    if ('why' in point) return point.why;
    this.eventList = this.eventList.slice(0, point.events);
    this.history.splice(point.messages);
    await Promise.all([this.deps.store.events.replace(this.eventList), this.deps.store.messages.replace(this.history)]);
    this.updateMeta({});
    this.emit('rewound', this.eventList);
    return undefined;
  }

  /** The images the person pasted into their message `id`, as the model was sent them (an edit sends them again). */
  pastedImages(id: string): PastedImage[] {
    const e = this.eventList.find((x): x is Extract<ChatEvent, { kind: 'user' }> => x.kind === 'user' && x.id === id);
    const message = e?.span ? this.history[e.span.to - 1] : undefined;
    if (!message || typeof message.content === 'string') return [];
    return message.content.flatMap((b) => (b.type === 'image' && b.source.type === 'base64' ? [{ mimeType: b.source.media_type, data: b.source.data }] : []));
  }

  /**
   * An MCP App view's message (ui/message) as the next turn: shown as the view's, and told to the model as the
   * view's (app-messages.ts), never as the person's. Refused while a turn runs, and when a view has already sent
   * a few in a row (appMessageRefusal); answered once the turn starts.
   */
  async sendFromApp(server: string, text: string, config: TurnConfig): Promise<void> {
    await this.load();
    if (this.running) throw new Error('A turn is running: the message was not sent.');
    const refused = appMessageRefusal(this.eventList);
    if (refused) throw new Error(refused);
    this.record({ kind: 'user', id: randomUUID(), text, attachments: [], at: Date.now(), app: server, span: spanOf(this.history, 1) });
    void this.runTurn(config, { text: appMessageForModel(server, text), context: [] });
  }

  /** A tool call an MCP App's view asked for: the model's approval path and egress guard, its card marked as the view's. */
  callForApp(tool: HubTool, input: Record<string, unknown>, signal: AbortSignal, toolTimeoutMs?: number): Promise<CallOutcome> {
    const path = {
      host: this.deps.host,
      approvals: this.deps.approvals,
      askApproval: (r: ApprovalRequest, s: AbortSignal) => this.approvals.ask(r, s),
      egress: this.egress,
      workspaceDir: this.deps.workspace,
      toolTimeoutMs,
    };
    return approvedCall(path, { callId: `app-${randomUUID()}`, tool, input, signal, conversation: this.history, fromApp: true });
  }

  stop(): void {
    this.running?.abort();
  }

  /** The person's answer to an approval this chat is waiting for (unknown ids are ignored: the card may be stale). */
  answer(callId: string, decision: ApprovalDecision): void {
    this.approvals.answer(callId, decision);
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

  /** Waits for what is being written; the chat stays usable. */
  async flush(): Promise<void> {
    await Promise.all([this.deps.store.events.flush(), this.deps.store.messages.flush(), this.metaWrite]);
  }

  dispose(): void {
    this.stop();
    this.removeAllListeners();
  }

  private async runTurn(config: TurnConfig, input: TurnInput): Promise<TurnStatus> {
    const controller = new AbortController();
    this.running = controller;
    this.emit('busy', true);
    const checkpoint = this.deps.checkpoints ? new TurnCheckpoint(this.deps.checkpoints, (m) => this.deps.log?.(m)) : undefined;
    let turnId: string | undefined;
    const agent = new Agent({
      client: config.client,
      host: this.deps.host,
      model: config.model,
      maxTokens: config.maxTokens,
      maxIterations: config.maxIterations,
      toolTimeoutMs: config.toolTimeoutMs,
      keyHint: config.keyHint,
      settingNames: config.settingNames,
      promptCaching: config.promptCaching,
      effort: config.effort,
      contextWindow: config.contextWindow,
      toolSearch: config.toolSearch,
      onCompact: (messages) => void this.deps.store.messages.replace(messages),
      workspaceName: this.deps.workspace ? basename(this.deps.workspace) : 'no folder open',
      workspaceDir: this.deps.workspace,
      beforeChange: checkpoint ? () => checkpoint.begin() : undefined,
      approvals: this.deps.approvals,
      egress: this.egress,
      askApproval: (request, signal) => this.approvals.ask(request, signal),
      conversation: this.history,
      onMessage: (m) => void this.deps.store.messages.append(m),
      system: this.meta.system,
      onSystem: (system: FrozenSystem) => this.updateMeta({ system }),
    });
    try {
      const status = await agent.runTurn(
        input,
        (o) => {
          if (o.type !== 'event') return this.emit('transient', o);
          if ('turnId' in o.event) turnId ??= o.event.turnId;
          if (o.event.kind === 'turn_end' && o.event.usage) this.addUsage(o.event.usage);
          this.record(o.event);
        },
        controller.signal,
      );
      this.deps.log?.(`turn ended: ${status}`);
      const changed = await checkpoint?.end();
      if (changed && turnId) this.record(checkpointEvent(turnId, changed));
      return status;
    } catch (err) {
      this.notice('error', `The turn failed: ${messageOf(err)}`);
      return 'error';
    } finally {
      this.running = undefined;
      this.approvals.endTurn();
      this.emit('busy', false);
      const failed = this.deps.store.events.lastError ?? this.deps.store.messages.lastError;
      if (failed) this.notice('warning', `This chat could not be saved: ${failed.message}`);
    }
  }

  private record(event: ChatEvent): void {
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

  private addUsage(u: TurnUsage): void {
    this.updateMeta(withTurnUsage(this.meta, u));
  }

  /** Changes the meta file (queued, so writes land in order) and tells the front end. */
  private updateMeta(change: Partial<ChatMeta>): void {
    this.meta = { ...this.meta, updatedAt: Date.now(), ...change };
    const meta = this.meta;
    const dir = this.deps.store.dir;
    // Told once it is on disk, so a list read on the news (the Chats view) finds it there.
    this.metaWrite = this.metaWrite
      .then(() => writeMeta(dir, meta))
      .catch((err: unknown) => this.deps.log?.(`could not save the chat's details: ${String(err)}`))
      .then(() => this.emit('meta', this.meta));
  }
}

/** How a pasted image is named among a message's attachments (the picture itself goes to the model only). */
export const PASTED_IMAGE = 'pasted image';
/** Why a message was not sent: one turn at a time. */
export const STILL_RUNNING = 'A turn is still running: stop it or wait for it to finish.';
