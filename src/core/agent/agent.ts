import type Anthropic from '@anthropic-ai/sdk';
import { modelSdk } from './model-client';
import { randomUUID } from 'node:crypto';
import type { ChatEvent, TurnActivity } from '../../common/protocol';
import { describeApiError, errorAction, promptTooLong, refusedToolSearch } from './api-errors';
import type { AgentOptions, TurnInput } from './agent-options';
import { resolveTool, type CallPath } from '../tool-call/approved-call';
import { runToolUses } from './tool-round';
import { EgressGuard } from '../egress/egress-guard';
import { readReply, type StreamedReply } from './reply-stream';
import type { HubTool } from '../mcp/types';
import { textLimitsFor } from './result-caps';
import { blocks, NO_REPLY_MESSAGE, repairHistory } from './history-repair';
import { freezeSystem, toldDeferred, toolChangeNote, type FrozenSystem } from './frozen-system';
import { ToolOffer, type OfferedRequest } from '../tool-offer/tool-offer';
import { planSummary } from '../tool-offer/tool-plan';
import { apiSearchEvents } from '../tool-offer/search-blocks';
import { rememberRefusal, toolSearchFor } from '../tool-offer/tool-search-mode';
import { withCacheBreakpoints, withoutCaching } from './prompt-cache';
import { addUsage, NO_USAGE, promptTokens, usageOf, type TokenUsage } from '../usage/token-usage';
import { compact, COMPACT_AT, estimateTokens } from './compaction';
import { costOf } from '../usage/prices';
import type { AgentOutput, TurnStatus } from './types';
import { unrunnableCalls } from './unrunnable-calls';
import { blockActivity, watchAttempts } from './turn-activity';
import { startingServers } from '../mcp/hub/readiness';

/** Ends what was kept of a reply the person stopped while it streamed. */
const INTERRUPTED = '[Interrupted: the person stopped this reply here.]';
const GO_ON = '[Your reply was cut off by the output limit. Go on from exactly where it stopped, without repeating what you already wrote.]';

/**
 * The Claude loop: stream a reply, run the tool calls it asks for (in the model's order, consecutive
 * reads at once, each approved first when it needs to be), send the results back, until the model
 * stops or the iteration cap is reached.
 *
 * Written on `messages.stream()` rather than the SDK's beta tool runner because every call has
 * to pass the person's approval before it runs, report its own card (timing, progress, errors),
 * and be cancelled with the turn; the runner owns tool execution and the beta thread state.
 */
export class Agent {
  private readonly history: Anthropic.MessageParam[];
  private system: FrozenSystem | undefined;
  /** What this turn's model calls used so far. */
  private turnUsage: TokenUsage = NO_USAGE;
  /** The prompt size the API reported for the last request, and how long the conversation was then. */
  private lastPrompt: { tokens: number; messages: number } | undefined;
  /** The text of the reply streaming now, by block, kept if the person stops it. */
  private partial: { turnId: string; texts: Map<string, string> } | undefined;

  private readonly egress: EgressGuard;
  /** What each request offers of the host's tools, and the host the turn calls through. */
  private readonly offer: ToolOffer;
  /** What every call of the model's goes through (tool-call/approved-call.ts). */
  private readonly path: CallPath;

  constructor(private readonly options: AgentOptions) {
    this.history = options.conversation ?? repairHistory(options.history ?? []);
    this.egress = options.egress ?? new EgressGuard({ personText: () => [], store: options.approvals });
    this.system = options.system;
    this.offer = new ToolOffer(options.host, toolSearchFor(options.model, options.client.baseURL, options.toolSearch));
    this.path = {
      host: this.offer.host,
      approvals: options.approvals,
      askApproval: options.askApproval,
      egress: this.egress,
      workspaceDir: options.workspaceDir,
      beforeChange: options.beforeChange,
      toolTimeoutMs: options.toolTimeoutMs,
    };
  }

  get messages(): readonly Anthropic.MessageParam[] {
    return this.history;
  }

  async runTurn(input: TurnInput, emit: (out: AgentOutput) => void, signal: AbortSignal): Promise<TurnStatus> {
    const turnId = randomUUID();
    this.turnUsage = NO_USAGE;
    await this.serversReady(turnId, emit, signal);
    const event = (e: ChatEvent): void => {
      if (e.kind === 'turn_end' && this.turnUsage !== NO_USAGE) {
        const costUsd = costOf(this.options.model, this.turnUsage);
        e = { ...e, usage: { model: this.options.model, ...this.turnUsage, ...(costUsd !== undefined ? { costUsd } : {}) } };
      }
      emit({ type: 'event', event: e });
    };
    if ('messages' in input) {
      const note = this.toolNote(event);
      const [first, ...rest] = input.messages;
      if (first?.role !== 'user' || rest.at(-1)?.role === 'assistant') throw new Error('a turn starts and ends with a message of the person');
      this.addUserContent([...(note ? [{ type: 'text' as const, text: note }] : []), ...blocks(first)]);
      for (const message of rest) this.push(message);
    } else if (!('retry' in input)) {
      const note = this.toolNote(event);
      this.addUserContent([
        ...(note ? [{ type: 'text' as const, text: note }] : []),
        ...(input.context ?? []).map((text) => ({ type: 'text' as const, text })),
        ...(input.images ?? []).map((image) => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: image.mimeType, data: image.data } })),
        { type: 'text', text: input.text },
      ]);
    } else if (this.history.at(-1)?.role !== 'user') {
      event({ kind: 'turn_end', turnId, status: 'error', error: 'There is nothing to retry: the last request did not fail. Send a message instead.' });
      return 'error';
    }
    const maxIterations = this.options.maxIterations ?? 10;
    /** A reply cut off by the output limit goes on by itself once a turn; the next time the person decides. */
    let wentOn = false;
    const settings = this.options.settingNames ?? { maxTokens: 'the mcpAgent.maxTokens setting', maxIterations: 'the mcpAgent.maxIterations setting' };
    try {
      for (let iteration = 0; iteration < maxIterations; iteration++) {
        await this.fitWindow(turnId, emit, signal);
        const offered = this.offer.request(this.history);
        const reply = await this.streamReply(turnId, iteration, offered, emit, signal).catch(async (err: unknown) => {
          if (signal.aborted) throw err;
          // The API does not take its own tool search here (a proxy, another model): the host's search from now on.
          if (offered.search === 'api' && refusedToolSearch(err) && this.offer.useHostSearch()) {
            rememberRefusal(this.options.model, this.options.client.baseURL);
            return this.streamReply(turnId, iteration, this.offer.request(this.history), emit, signal);
          }
          // The estimate was short (a tokenizer counts differently): compact now and ask once more.
          if (!promptTooLong(err) || !this.options.contextWindow) throw err;
          await this.fitWindow(turnId, emit, signal, true);
          return this.streamReply(turnId, iteration, this.offer.request(this.history), emit, signal);
        });
        this.push({ role: 'assistant', content: reply.message.content as Anthropic.ContentBlockParam[] });
        const stop = reply.message.stop_reason;
        if (stop === 'refusal') {
          event({
            kind: 'turn_end',
            turnId,
            status: 'error',
            error: 'Claude declined to go on with this request. Rephrase it, or start a new chat for a different task.',
          });
          return 'error';
        }
        // A long server-side step paused the reply: sent back as it is, the model picks it up.
        if (stop === 'pause_turn') continue;
        const uses = reply.message.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
        if (uses.length === 0 && (stop === 'max_tokens' || stop === 'model_context_window_exceeded')) {
          if (!wentOn) {
            wentOn = true;
            this.push({ role: 'user', content: [{ type: 'text', text: GO_ON }] });
            continue;
          }
          const note = `The reply reached the output limit (${this.maxTokens} tokens, ${settings.maxTokens}) twice. Continue to let it go on.`;
          event({ kind: 'turn_end', turnId, status: 'max_tokens', error: note, action: 'continue' });
          return 'max_tokens';
        }
        if (uses.length === 0) {
          event({ kind: 'turn_end', turnId, status: 'done' });
          return 'done';
        }
        const refusals = unrunnableCalls(reply, { maxTokens: this.maxTokens, maxTokensSetting: settings.maxTokens });
        const textLimits = textLimitsFor(this.options.contextWindow);
        const round = { path: this.path, offer: this.offer, turnId, emit, signal, textLimits, resolved: reply.resolved };
        this.push({ role: 'user', content: await runToolUses(round, uses, refusals) });
        if (signal.aborted) throw signal.reason ?? new Error('stopped');
      }
      const note = `Stopped after ${maxIterations} model calls in one turn (${settings.maxIterations}). Send "continue" to go on.`;
      event({ kind: 'turn_end', turnId, status: 'max_iterations', error: note, action: 'continue' });
      return 'max_iterations';
    } catch (err) {
      if (signal.aborted || err instanceof modelSdk().ApiError.APIUserAbortError) {
        this.keepInterrupted(event);
        event({ kind: 'turn_end', turnId, status: 'stopped' });
        return 'stopped';
      }
      const message = describeApiError(err, this.options.keyHint ?? 'Set ANTHROPIC_API_KEY.');
      event({ kind: 'turn_end', turnId, status: 'error', error: message, ...errorAction(err) });
      return 'error';
    }
  }

  /**
   * Servers still starting (the window just opened) are waited for, boundedly, before the turn reads the tools
   * and the system prompt: a message sent at once would otherwise find none of their tools.
   */
  private async serversReady(turnId: string, emit: (out: AgentOutput) => void, signal: AbortSignal): Promise<void> {
    const host = this.options.host;
    const starting = startingServers(host.statuses?.() ?? []);
    if (!host.ready || starting.length === 0) return;
    emit({ type: 'activity', turnId, activity: { kind: 'servers', starting } });
    await host.ready(signal);
  }

  /** A reply stopped while it streamed is kept as such: the chat shows it, the model sees where it was cut. */
  private keepInterrupted(event: (e: ChatEvent) => void): void {
    const kept = this.partial;
    this.partial = undefined;
    const texts = [...(kept?.texts ?? [])].filter(([, text]) => text.trim() !== '');
    if (!kept || texts.length === 0) return;
    for (const [blockId, text] of texts) event({ kind: 'assistant_text', turnId: kept.turnId, blockId, text });
    this.push({ role: 'assistant', content: [{ type: 'text', text: `${texts.map(([, t]) => t).join('\n\n')}\n\n${INTERRUPTED}` }] });
  }

  private get maxTokens(): number {
    return this.options.maxTokens ?? 8192;
  }

  /** All model calls of this agent so far. */
  get usage(): TokenUsage {
    return this.totalUsage;
  }
  private totalUsage: TokenUsage = NO_USAGE;

  /**
   * Makes the chat's system prompt at its first message; later, says in the message what changed
   * in the tool list instead of rewriting the prompt. The person is told once, when the model is
   * first told, that tools are found by search.
   */
  private toolNote(event: (e: ChatEvent) => void): string | undefined {
    const plan = this.offer.plan();
    const before = this.system?.tools;
    let note: string | undefined;
    if (!this.system) this.system = freezeSystem(plan, this.options.workspaceName, this.options.host.statuses?.() ?? []);
    else {
      const change = toolChangeNote(this.system.tools, plan);
      if (!change) return undefined;
      this.system = { ...this.system, tools: change.tools };
      note = change.note;
    }
    this.options.onSystem?.(this.system);
    if (toldDeferred(this.system.tools) && !(before && toldDeferred(before))) event({ kind: 'notice', level: 'info', text: `${planSummary(plan)}.` });
    return note;
  }

  private count(used: TokenUsage): void {
    this.turnUsage = addUsage(this.turnUsage, used);
    this.totalUsage = addUsage(this.totalUsage, used);
  }

  /**
   * Compacts the conversation when the next request would fill more than COMPACT_AT of the model's
   * window: the size is the last request's as the API counted it, plus an estimate of what was
   * added since (or all of it estimated, before the first request).
   */
  private async fitWindow(turnId: string, emit: (out: AgentOutput) => void, signal: AbortSignal, force = false): Promise<void> {
    const window = this.options.contextWindow;
    if (!window) return;
    const system = this.systemText();
    const estimate = this.lastPrompt
      ? this.lastPrompt.tokens + estimateTokens(this.history.slice(this.lastPrompt.messages))
      : estimateTokens(system) + estimateTokens(this.offer.plan().loaded.map((t) => t.tool)) + estimateTokens(this.history);
    if (!force && estimate <= window * COMPACT_AT) return;
    emit({ type: 'activity', turnId, activity: { kind: 'compacting' } });
    const done = await compact(this.options.client, { model: this.options.model, system, window }, this.history, signal);
    if (!done) return;
    this.count(usageOf(done.usage));
    this.history.splice(0, this.history.length, ...done.messages);
    this.lastPrompt = undefined;
    this.options.onCompact?.(this.history);
    emit({
      type: 'event',
      event: { kind: 'compaction', turnId, replaced: done.replaced, summary: done.summary, tokensBefore: done.tokensBefore, tokensAfter: done.tokensAfter },
    });
  }

  private systemText(): string {
    // A retry of a chat restored from before system prompts were kept: make it now.
    this.system ??= freezeSystem(this.offer.plan(), this.options.workspaceName, this.options.host.statuses?.() ?? []);
    return this.system.text;
  }

  private async streamReply(
    turnId: string,
    iteration: number,
    offered: OfferedRequest,
    emit: (out: AgentOutput) => void,
    signal: AbortSignal,
  ): Promise<ResolvedReply> {
    const request =
      this.options.promptCaching === false
        ? withoutCaching(offered.tools, this.systemText(), offered.messages)
        : withCacheBreakpoints(offered.tools, this.systemText(), offered.messages, offered.cacheAt);
    const effort = this.options.effort ? { output_config: { effort: this.options.effort } } : {};
    const activity = (a: TurnActivity): void => emit({ type: 'activity', turnId, activity: a });
    const stream = await this.options.client.messages.create(
      { model: this.options.model, max_tokens: this.maxTokens, stream: true, ...effort, ...request },
      { signal, middleware: [watchAttempts(this.options.client.maxRetries, signal, activity)] },
    );
    const blockId = (index: number): string => `${turnId}:${iteration}:${index}`;
    const partial = { turnId, texts: new Map<string, string>() };
    this.partial = partial;
    const resolved = new Map<string, HubTool | undefined>();
    const reply = await readReply(
      stream,
      (index, text) => {
        const id = blockId(index);
        partial.texts.set(id, (partial.texts.get(id) ?? '') + text);
        emit({ type: 'delta', turnId, blockId: id, text });
      },
      (block) => {
        // A call's tool is looked up here, once, as its block begins: the activity names it, the round calls it.
        if (block.type === 'tool_use') resolved.set(block.id, resolveTool(this.offer.host, block.name));
        const a = blockActivity(block, (name) => (block.type === 'tool_use' ? resolved.get(block.id)?.tool.name : undefined) ?? name);
        if (a) activity(a);
      },
    );
    this.partial = undefined;
    const used = usageOf(reply.message.usage);
    this.count(used);
    this.lastPrompt = { tokens: promptTokens(used), messages: this.history.length };
    if (signal.aborted) throw new (modelSdk().ApiError.APIUserAbortError)();
    for (const e of apiSearchEvents(turnId, reply.message.content)) emit({ type: 'event', event: e });
    reply.message.content.forEach((block, index) => {
      if (block.type === 'thinking' && block.thinking.trim().length > 0) {
        emit({ type: 'event', event: { kind: 'thinking', turnId, blockId: blockId(index), text: block.thinking } });
      }
      if (block.type === 'text' && block.text.length > 0) {
        emit({ type: 'event', event: { kind: 'assistant_text', turnId, blockId: blockId(index), text: block.text } });
      }
    });
    return { ...reply, resolved };
  }

  /**
   * A new message of the person. A turn that was stopped or failed left theirs last, unanswered: it
   * is closed by a line the model sees (NO_REPLY) instead of being joined to the new one, which would
   * send both requests as one ("delete the old tests" + "no, just list them").
   */
  private addUserContent(content: Anthropic.ContentBlockParam[]): void {
    if (this.history.at(-1)?.role === 'user') this.push(NO_REPLY_MESSAGE);
    this.push({ role: 'user', content });
  }

  private push(message: Anthropic.MessageParam): void {
    this.history.push(message);
    this.options.onMessage?.(message);
  }
}

/** A reply and the tool each of its calls stands for, by tool_use id, looked up as the call began streaming. */
type ResolvedReply = StreamedReply & { resolved: ReadonlyMap<string, HubTool | undefined> };
