// The chat page as the host's asks see it (sampling and elicitation cards): records what is posted and lets a test
// wait for cards and their ends, answering for the person through ClientAsks.answer.
import type Anthropic from '@anthropic-ai/sdk';
import { ModelCatalog } from '../../src/core/agent/model-catalog';
import type { AskSurface } from '../../src/core/chat/client-asks';
import type { ClientAsk, HostMessage, TurnUsage } from '../../src/common/protocol';

export class RecordingCards implements AskSurface {
  readonly posted: HostMessage[] = [];
  /** Tokens servers' requests used, as the host counted them with the chat. */
  readonly usage: TurnUsage[] = [];
  budgetChanges = 0;
  private waiters: Array<() => void> = [];
  private readonly catalog: ModelCatalog;

  constructor(
    private readonly api: Anthropic,
    private readonly modelId: string,
    /** Where counted tokens go besides `usage` (the open chat's totals). */
    private readonly onUsage?: (usage: TurnUsage) => void,
  ) {
    this.catalog = new ModelCatalog(async () => this.api);
  }

  post(message: HostMessage): void {
    this.posted.push(message);
    this.wake();
  }
  hasPage = (): boolean => true;
  reveal = async (): Promise<void> => undefined;
  client = async (): Promise<Anthropic> => this.api;
  models = () => this.catalog.list();
  model = (): string => this.modelId;
  countUsage(usage: TurnUsage): void {
    this.usage.push(usage);
    this.onUsage?.(usage);
  }
  budgetsChanged(): void {
    this.budgetChanges++;
    this.wake();
  }

  asks(): ClientAsk[] {
    return this.posted.flatMap((m) => (m.type === 'ask' ? [m.ask] : []));
  }

  /** Resolves once `n` cards have been shown in all. */
  async cards(n: number): Promise<ClientAsk[]> {
    while (this.asks().length < n) await this.next();
    return this.asks();
  }

  /** Resolves with how the card ended once it has. */
  async settled(askId: string): Promise<string> {
    const find = () => this.posted.find((m): m is Extract<HostMessage, { type: 'askSettled' }> => m.type === 'askSettled' && m.askId === askId);
    while (!find()) await this.next();
    return find()!.outcome;
  }

  /** Resolves at the next thing posted or the next budget change. */
  next(): Promise<void> {
    return new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}
