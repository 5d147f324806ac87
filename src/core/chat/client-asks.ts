import type { ModelClient } from '../agent/model-client';
import { randomUUID } from 'node:crypto';
import type Anthropic from '@anthropic-ai/sdk';
import { ProtocolErrorCode, ProtocolError } from '@modelcontextprotocol/client';
import type { ModelEntry } from '../agent/model-catalog';
import type { ElicitationAnswer } from '../mcp/client/elicitation-handler';
import type { SamplingDecision } from '../sampling/sampling-broker';
import type { PersonAsks, SamplingModels } from '../host/compose-host';
import { costOf } from '../usage/prices';
import { usageOf } from '../usage/token-usage';
import type { AskAnswer, AskOutcome, ClientAsk, HostMessage, TurnUsage } from '../../common/protocol';
import { samplingAsk } from './ask-content';

/** Forms one server may have waiting at once; more are refused (a flood must not bury the chat in cards). */
const MAX_FORMS_PER_SERVER = 2;

/** What the chat gives the asks: where cards go, and the chat's own model, key and token totals. */
export interface AskSurface {
  /** To every chat page that is showing the chat. */
  post(message: HostMessage): void;
  /** Whether a chat page is ready to show a card. */
  hasPage(): boolean;
  /** Opens the chat view (a card must not wait unseen). */
  reveal(): Promise<void>;
  client(): Promise<ModelClient | undefined>;
  models(): Promise<readonly ModelEntry[]>;
  /** The model the chat uses now. */
  model(): string;
  /** Tokens a server's request used, counted with the open chat's. */
  countUsage(usage: TurnUsage): void;
  /** A server's "Always" budget was granted or used: the chat shows the budgets again. */
  budgetsChanged(): void;
}

export interface ClientAsksDeps {
  log: { info(message: string): void; warn(message: string): void };
  /** Opens a page in the person's browser (the editor's openExternal); called only after they agreed. */
  openExternal(url: string): Promise<unknown>;
}

interface Waiting {
  ask: ClientAsk;
  settle(answer: AskAnswer | undefined): void;
}

/**
 * The chat's answers to what servers ask (sampling, elicitation): each ask becomes a card in the chat
 * page and waits for the person; a server that cancels its request withdraws its card. Made before the
 * hub (it declares the capabilities) and attached to the chat once that exists. Editor-free (the editor
 * comes in through its deps), so the tests run the real thing under node.
 */
export class ClientAsks {
  private surface: AskSurface | undefined;
  private readonly waiting = new Map<string, Waiting>();
  private readonly log: ClientAsksDeps['log'];
  /** How the host (compose-host.ts) asks the person through this chat: its cards. */
  readonly asks: Omit<PersonAsks, 'oauth'>;
  /** Sampling runs on the chat's own key and models. */
  readonly models: SamplingModels;

  constructor(private readonly deps: ClientAsksDeps) {
    this.log = deps.log;
    this.asks = {
      sampling: {
        ask: (request, signal) => this.askSampling(samplingAsk(randomUUID(), request), signal),
        allowed: (request, budget) =>
          this.log.info(
            `${request.server} asks: a reply from ${request.model} (sampling), allowed without asking: ${budget.used.toLocaleString('en-US')} of ${budget.limit.toLocaleString('en-US')} tokens used`,
          ),
        onBudget: () => this.surface?.budgetsChanged(),
      },
      elicitation: {
        form: async (request, signal) => {
          this.limitForms(request.server);
          const ask: ClientAsk = {
            kind: 'form',
            askId: randomUUID(),
            server: request.server,
            message: request.message,
            fields: request.form.fields,
            ...(request.secrets.length > 0 ? { secretFields: request.secrets } : {}),
          };
          const answer = await this.ask(ask, signal);
          return formAnswer(answer);
        },
        url: async (request, signal) => {
          const answer = await this.ask(
            { kind: 'url', askId: randomUUID(), server: request.server, message: request.message, url: request.url, site: request.site },
            signal,
          );
          const action = answer?.kind === 'url' ? answer.action : 'cancel';
          // Opened only now, after the person saw the whole address and agreed.
          if (action === 'accept') await this.deps.openExternal(request.url);
          return action;
        },
      },
    };
    this.models = {
      client: async () => this.surface?.client(),
      list: async () => (await this.surface?.models()) ?? [],
      current: () => this.attached().model(),
      keyHint: "run 'MCP Agent: Set API Key'",
    };
  }

  /** The chat that shows the cards; asks before this are refused. */
  attach(surface: AskSurface): void {
    this.surface = surface;
  }

  /** The cards still waiting, for a chat page that just loaded. */
  pending(): HostMessage[] {
    return [...this.waiting.values()].map((w) => ({ type: 'ask', ask: w.ask }));
  }

  /** The person's answer from a card; an answer of the wrong kind, or to an ask no longer waiting, is ignored. */
  answer(askId: string, answer: AskAnswer): void {
    const w = this.waiting.get(askId);
    if (!w || w.ask.kind !== answer.kind) return;
    w.settle(answer);
  }

  private async askSampling(ask: ClientAsk, signal: AbortSignal): Promise<SamplingDecision> {
    const answer = await this.ask(ask, signal);
    return answer?.kind === 'sampling' ? answer.decision : 'deny';
  }

  /** Shows the card and waits for its answer; undefined when the server withdrew it. */
  private ask(ask: ClientAsk, signal: AbortSignal): Promise<AskAnswer | undefined> {
    const surface = this.attached();
    if (signal.aborted) return Promise.resolve(undefined);
    return new Promise<AskAnswer | undefined>((resolve) => {
      const settle = (answer: AskAnswer | undefined): void => {
        if (!this.waiting.delete(ask.askId)) return;
        signal.removeEventListener('abort', onAbort);
        surface.post({ type: 'askSettled', askId: ask.askId, outcome: outcomeOf(answer) });
        resolve(answer);
      };
      const onAbort = (): void => settle(undefined);
      this.waiting.set(ask.askId, { ask, settle });
      signal.addEventListener('abort', onAbort, { once: true });
      surface.post({ type: 'ask', ask });
      this.log.info(
        `${ask.server} asks: ${ask.kind === 'sampling' ? `a reply from ${ask.model} (sampling)` : ask.kind === 'form' ? 'a form (elicitation)' : `to open ${ask.url}`}`,
      );
      if (!surface.hasPage()) surface.reveal().catch((err: unknown) => this.log.warn(`could not show the chat for ${ask.server}'s question: ${String(err)}`));
    });
  }

  private attached(): AskSurface {
    if (!this.surface) throw new ProtocolError(ProtocolErrorCode.InternalError, 'the chat is not ready to ask the person yet; try again in a moment');
    return this.surface;
  }

  private limitForms(server: string): void {
    const open = [...this.waiting.values()].filter((w) => w.ask.server === server && w.ask.kind !== 'sampling').length;
    if (open >= MAX_FORMS_PER_SERVER) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `too many questions at once: ${server} already has ${open} waiting for the person; ask again when one is answered`,
      );
    }
  }

  /** A server's sampling used these tokens: counted with the open chat's. */
  countUsage(server: string, model: string, u: Anthropic.Usage): void {
    const used = usageOf(u);
    const costUsd = costOf(model, used);
    this.log.info(`sampling for ${server} on ${model}: ${used.input} in, ${used.output} out`);
    this.surface?.countUsage({ model, ...used, ...(costUsd !== undefined ? { costUsd } : {}) });
  }

  dispose(): void {
    for (const w of [...this.waiting.values()]) w.settle(undefined);
  }
}

function formAnswer(answer: AskAnswer | undefined): ElicitationAnswer {
  if (answer?.kind !== 'form') return { action: 'cancel' };
  if (answer.action === 'accept') return { action: 'accept', content: answer.content ?? {} };
  return { action: answer.action };
}

function outcomeOf(answer: AskAnswer | undefined): AskOutcome {
  if (!answer) return 'withdrawn';
  return answer.kind === 'sampling' ? answer.decision : answer.action;
}
