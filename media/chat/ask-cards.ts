/**
 * The cards for what servers ask (sampling, forms, pages to open), below the conversation: they belong
 * to the window, not to one chat, so switching chats keeps a pending one. Each is announced at once,
 * like an approval; the host's `askSettled` closes it (answered here, in another chat page, or withdrawn).
 */
import type { AskAnswer, AskOutcome, ClientAsk } from '../../src/common/protocol';
import { h } from './dom';
import { ElicitationCard } from './elicitation-card';
import { SamplingCard } from './sampling-card';
import { UrlCard } from './url-card';

interface Card {
  readonly el: HTMLElement;
  readonly isPending: boolean;
  readonly announcement: string;
  settle(outcome: AskOutcome): void;
}

export interface AskCardsDeps {
  onAnswer(askId: string, answer: AskAnswer): void;
  onAnnounce(text: string, urgent: boolean): void;
  /** After a card was added or changed (scrolling). */
  onChange(): void;
}

export class AskCards {
  readonly el = h('div', { class: 'ask-cards', attrs: { id: 'asks', role: 'region', 'aria-label': 'Questions from servers' } });
  private readonly cards = new Map<string, Card>();

  constructor(private readonly deps: AskCardsDeps) {
    this.el.hidden = true;
  }

  show(ask: ClientAsk): void {
    if (this.cards.has(ask.askId)) return;
    const answer = (a: AskAnswer): void => this.deps.onAnswer(ask.askId, a);
    const card: Card =
      ask.kind === 'sampling'
        ? new SamplingCard(ask, (decision) => answer({ kind: 'sampling', decision }))
        : ask.kind === 'form'
          ? new ElicitationCard(ask, answer)
          : new UrlCard(ask, answer);
    this.cards.set(ask.askId, card);
    this.el.append(card.el);
    this.el.hidden = false;
    // A question must be seen even by someone who scrolled up to read.
    card.el.scrollIntoView({ block: 'nearest' });
    this.deps.onAnnounce(`Question from a server: ${card.announcement}`, true);
    this.deps.onChange();
  }

  settle(askId: string, outcome: AskOutcome): void {
    const card = this.cards.get(askId);
    if (!card?.isPending) return;
    card.settle(outcome);
    if (outcome === 'withdrawn') this.deps.onAnnounce('A server withdrew its question.', false);
    this.deps.onChange();
  }

  /** Another chat opened: answered cards go, pending ones stay. */
  dropSettled(): void {
    for (const [id, card] of this.cards) {
      if (card.isPending) continue;
      card.el.remove();
      this.cards.delete(id);
    }
    this.el.hidden = this.cards.size === 0;
  }
}
