import type Anthropic from '@anthropic-ai/sdk';
import { ProtocolErrorCode, ProtocolError, type CreateMessageRequestParams, type SamplingMessage } from '@modelcontextprotocol/client';
import type { ModelEntry } from '../agent/model-catalog';
import type { SamplingHandler, ServerRequestContext } from '../mcp/client/client-handlers';
import { fromAnthropicMessage, toAnthropicRequest } from './sampling-anthropic';
import { DEFAULT_ALWAYS_BUDGET, SamplingBudgets, type BudgetUse } from './sampling-budget';
import { pickSamplingModel } from './sampling-model';
import { messageOf } from '../../node/error-message';

/** The spec's answer to a sampling request the person denied (client spec, sampling: "User rejected sampling request"). */
const USER_REJECTED = -1;

export type SamplingDecision = 'once' | 'always' | 'deny';

/** What the person is shown before a server's request reaches the model. */
export interface SamplingApproval {
  server: string;
  messages: SamplingMessage[];
  systemPrompt?: string;
  /** The most the reply may take: what the server asked, within the model's output limit and the "always" budget. */
  maxTokens: number;
  /** Set when the server asked for more than `maxTokens`: what it asked, and which limit took it down. */
  asked?: { maxTokens: number; limitedBy: 'model' | 'budget' };
  /** The server's model hints, as it gave them ("claude-3-sonnet, claude"). */
  modelHint?: string;
  /** The model it will run on. */
  model: string;
  /** Names of the tools the server lets the model call in its reply. */
  tools: string[];
  /** The tokens "always" allows this server before it asks again. */
  alwaysLimit: number;
  /** Set when the server had "always" and its budget cannot take this request: what it used. */
  spent?: BudgetUse;
}

export interface SamplingBrokerOptions {
  /** Ask the person; not called for a server they allowed "always" while its budget lasts. */
  ask(request: SamplingApproval, signal: AbortSignal): Promise<SamplingDecision>;
  /** Told of a request that runs without asking ("always"), with its server's budget before it. */
  allowed?(request: SamplingApproval, budget: BudgetUse): void;
  /** The tokens "always" allows a server (input and output) before it asks again. Default 100,000. */
  alwaysBudget?: number;
  /** A server's budget was granted, used or taken back. */
  onBudget?(): void;
  /** Do it: one Messages API call through the host's own client and key. */
  create(body: Anthropic.MessageCreateParamsNonStreaming, signal: AbortSignal): Promise<Anthropic.Message>;
  /** The models the key can use (ModelCatalog.list), to choose among by the server's preferences. */
  models(): Promise<readonly ModelEntry[]>;
  /** The model used when the server's preferences pick none (the chat's own). */
  defaultModel(): string;
  /** Requests one server may have running (asking included); more are refused at once. Default 2. */
  maxConcurrent?: number;
  /** The tokens a request used, to be counted with the conversation's. */
  onUsage?(server: string, model: string, usage: Anthropic.Usage): void;
}

/**
 * Sampling as the host allows it: the person approves every request unless they said "always" for that
 * server and its token budget lasts (sampling-budget.ts), a server has at most a few requests running (a
 * flood is refused, not queued behind the question), and the request runs on the host's Anthropic client
 * with a model chosen from the server's preferences.
 */
export class SamplingBroker {
  private readonly running = new Map<string, number>();
  private readonly budgets: SamplingBudgets;
  readonly handler: SamplingHandler = (params, ctx) => this.sample(params, ctx);

  constructor(private readonly options: SamplingBrokerOptions) {
    this.budgets = new SamplingBudgets(options.alwaysBudget ?? DEFAULT_ALWAYS_BUDGET, () => options.onBudget?.());
  }

  /** Whether the person said "always" for this server (its budget may be spent). */
  isAlwaysAllowed(server: string): boolean {
    return this.budgets.has(server);
  }

  /** Takes back an "always". */
  forget(server: string): void {
    this.budgets.forget(server);
  }

  /** What each server with "always" has used of its budget. */
  budgetUse(): BudgetUse[] {
    return this.budgets.all();
  }

  private async sample(params: CreateMessageRequestParams, ctx: ServerRequestContext) {
    const cap = this.options.maxConcurrent ?? 2;
    const now = this.running.get(ctx.server) ?? 0;
    if (now >= cap) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `too many sampling requests at once: ${ctx.server} may have ${cap} running; try again when one has finished`,
      );
    }
    this.running.set(ctx.server, now + 1);
    try {
      return await this.approvedAndRun(params, ctx);
    } finally {
      const left = (this.running.get(ctx.server) ?? 1) - 1;
      if (left > 0) this.running.set(ctx.server, left);
      else this.running.delete(ctx.server);
    }
  }

  private async approvedAndRun(params: CreateMessageRequestParams, ctx: ServerRequestContext) {
    const models = await this.options.models().catch(() => [] as ModelEntry[]);
    const model = pickSamplingModel(params.modelPreferences, models, this.options.defaultModel());
    const hints = (params.modelPreferences?.hints ?? []).map((h) => h.name).filter((n): n is string => Boolean(n));
    // A request for more than the model can write, or than a whole "always" budget, is taken down to that (and said).
    const modelMax = models.find((m) => m.id === model)?.maxTokens ?? Infinity;
    const maxTokens = Math.min(params.maxTokens, modelMax, this.budgets.limit);
    const asked = maxTokens < params.maxTokens ? ({ maxTokens: params.maxTokens, limitedBy: maxTokens === modelMax ? 'model' : 'budget' } as const) : undefined;
    params = { ...params, maxTokens };
    const approval: SamplingApproval = {
      server: ctx.server,
      messages: params.messages,
      systemPrompt: params.systemPrompt,
      maxTokens,
      ...(asked ? { asked } : {}),
      modelHint: hints.length ? hints.join(', ') : undefined,
      model,
      tools: (params.tools ?? []).map((t) => t.name),
      alwaysLimit: this.budgets.limit,
    };
    const before = this.budgets.use(ctx.server);
    const auto = this.budgets.hold(ctx.server, params.maxTokens);
    const held = auto ? params.maxTokens : 0;
    if (auto && before) this.options.allowed?.(approval, before);
    else {
      const decision = await this.options.ask(before ? { ...approval, spent: before } : approval, ctx.signal);
      if (decision === 'deny' || ctx.signal.aborted) throw rejected();
      if (decision === 'always') this.budgets.grant(ctx.server);
    }
    let used = 0;
    try {
      const message = await this.run(params, model, models, ctx.signal);
      used = message.usage.input_tokens + message.usage.output_tokens;
      this.options.onUsage?.(ctx.server, message.model, message.usage);
      return fromAnthropicMessage(message, Boolean(params.tools?.length || params.toolChoice));
    } finally {
      this.budgets.settle(ctx.server, held, used);
    }
  }

  private async run(params: CreateMessageRequestParams, model: string, models: readonly ModelEntry[], signal: AbortSignal): Promise<Anthropic.Message> {
    const entry = models.find((m) => m.id === model);
    const body = toAnthropicRequest(params, model, entry?.maxTokens ?? undefined);
    try {
      return await this.options.create(body, signal);
    } catch (err) {
      throw new ProtocolError(ProtocolErrorCode.InternalError, `the model request failed: ${messageOf(err)}`);
    }
  }
}

/** The person said no: the spec's "user rejected" error, its code and words as they are sent. */
function rejected(): Error {
  return new ProtocolError(USER_REJECTED, 'User rejected sampling request');
}
