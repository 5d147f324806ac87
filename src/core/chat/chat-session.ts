import type { ModelClient } from '../agent/model-client';
import type { GetPromptResult } from '@modelcontextprotocol/client';
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { Agent } from '../agent/agent';
import type { Effort, TurnInput } from '../agent/agent-options';
import type { FrozenSystem } from '../agent/frozen-system';
import type { ApprovalRequest, TurnStatus } from '../agent/types';
import { TurnCheckpoint, checkpointEvent } from '../checkpoint/turn-checkpoint';
import type { ApprovalDecision, ChatEvent, PastedImage } from '../../common/protocol';
import { titleFrom } from './chat-meta';
import { describeWriter } from './chat-lock';
import { promptConversation } from './prompt-messages';
import { rewindPoint, spanOf, type RewindMode } from './message-spans';
import { promptCommand } from './slash-commands';
import { ApprovalWaits } from './approval-waits';
import { approvedCall, type CallOutcome } from '../tool-call/approved-call';
import type { HubTool } from '../mcp/types';
import { appMessageForModel, appMessageRefusal } from '../apps/app-messages';
import { messageOf } from '../../node/error-message';
import type { ToolSearchSetting } from '../tool-offer/tool-search-mode';
import { StoredChat, type ChatSessionDeps } from './stored-chat';

export type { ChatSessionDeps } from './stored-chat';

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

/**
 * One conversation, free of any editor: its events (what the person sees) and messages (what the
 * model sees), both persisted as they happen, the turn that is running and the approvals it waits
 * for. A front end shows it and answers its questions; it can switch to another chat while a turn
 * here still unwinds, and that turn writes only here.
 */
export class ChatSession extends StoredChat {
  private running: AbortController | undefined;
  private readonly approvals: ApprovalWaits;
  /** The turn running now, for close() to wait for. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(deps: ChatSessionDeps) {
    super(deps);
    this.approvals = new ApprovalWaits({ record: (e) => this.record(e), ask: deps.ask, onShown: deps.onApprovalShown, onSettled: deps.onApprovalSettled });
  }

  get busy(): boolean {
    return this.running !== undefined;
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
      // Another front end's writing was already said by claimChat().
      if (started.refused === STILL_RUNNING) this.notice('warning', STILL_RUNNING);
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
    if (!(await this.claimChat())) return { refused: WRITTEN_ELSEWHERE };
    if (this.running) return { refused: STILL_RUNNING };
    this.egress.labels.notePerson(text);
    for (const block of context) this.egress.labels.noteContext(block);
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
    if (!(await this.claimChat())) return undefined;
    if (this.running) {
      this.notice('warning', STILL_RUNNING);
      return undefined;
    }
    const { server, name } = prompt;
    const { messages, shown } = promptConversation(prompt.result, `${server}/${name}`);
    for (const m of messages) this.egress.labels.noteServer(server, typeof m.content === 'string' ? m.content : JSON.stringify(m.content));
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
    if (!(await this.claimChat())) return undefined;
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
    if (!(await this.claimChat())) return `This chat is being written by ${describeWriter(this.otherWriter!)}: close it there first.`;
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
    if (!(await this.claimChat())) throw new Error(`This chat is being written by ${describeWriter(this.otherWriter!)}: the message was not sent.`);
    if (this.running) throw new Error('A turn is running: the message was not sent.');
    const refused = appMessageRefusal(this.eventList);
    if (refused) throw new Error(refused);
    this.egress.labels.noteServer(server, text);
    this.record({ kind: 'user', id: randomUUID(), text, attachments: [], at: Date.now(), app: server, span: spanOf(this.history, 1) });
    void this.runTurn(config, { text: appMessageForModel(server, text), context: [] });
  }

  /**
   * A tool call an MCP App's view asked for: the model's approval path and egress guard, its card marked as the view's,
   * and a checkpoint of its own before it changes anything, recorded under the call's id (the page shows its Restore as
   * an entry of its own: the view may ask long after the turn that drew it ended).
   */
  async callForApp(tool: HubTool, input: Record<string, unknown>, signal: AbortSignal, toolTimeoutMs?: number): Promise<CallOutcome> {
    const callId = `app-${randomUUID()}`;
    const checkpoint = this.deps.checkpoints ? new TurnCheckpoint(this.deps.checkpoints, (m) => this.deps.log?.(m)) : undefined;
    const path = {
      host: this.deps.host,
      approvals: this.deps.approvals,
      askApproval: (r: ApprovalRequest, s: AbortSignal) => this.approvals.ask(r, s),
      egress: this.egress,
      workspaceDir: this.deps.workspace,
      beforeChange: checkpoint ? () => checkpoint.begin() : undefined,
      toolTimeoutMs,
    };
    const outcome = await approvedCall(path, { callId, tool, input, signal, fromApp: true });
    const changed = await checkpoint?.end();
    if (changed) this.record(checkpointEvent(callId, changed));
    return outcome;
  }

  stop(): void {
    this.running?.abort();
  }

  /** The person's answer to an approval this chat is waiting for (unknown ids are ignored: the card may be stale). */
  answer(callId: string, decision: ApprovalDecision): void {
    this.approvals.answer(callId, decision);
  }

  /** Done with the chat: a running turn is stopped and waited for, what it wrote is flushed, and the chat is let go. */
  async close(): Promise<void> {
    this.stop();
    await this.turn;
    await this.flush();
    await this.lock.release();
  }

  dispose(): void {
    this.stop();
    this.removeAllListeners();
    this.lock.releaseSync();
  }

  private runTurn(config: TurnConfig, input: TurnInput): Promise<TurnStatus> {
    const turn = this.turnOnce(config, input);
    this.turn = turn;
    return turn;
  }

  private async turnOnce(config: TurnConfig, input: TurnInput): Promise<TurnStatus> {
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
      await this.flush();
      const failed = this.saveError;
      if (failed) this.notice('error', `This chat could not be saved: ${failed.message}. What is not on disk is lost when this chat is closed.`);
    }
  }
}

/** How a pasted image is named among a message's attachments (the picture itself goes to the model only). */
export const PASTED_IMAGE = 'pasted image';
/** Why a message was not sent: one turn at a time. */
export const STILL_RUNNING = 'A turn is still running: stop it or wait for it to finish.';
/** Why a message was not sent: another front end writes this chat (claimChat() says which). */
const WRITTEN_ELSEWHERE = 'This chat is being written by another front end: nothing was sent.';
