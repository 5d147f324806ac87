/**
 * A server asks the person to open a page (URL-mode elicitation): the whole address is shown, its
 * site named apart, and nothing opens unless the person chooses Open (the host opens it then).
 */
import type { AskAnswer, AskOutcome, ClientAsk } from '../../src/shared/protocol';
import { AskFrame } from './ask-card';
import { h } from './dom';

type UrlAsk = Extract<ClientAsk, { kind: 'url' }>;

export class UrlCard {
  private readonly frame: AskFrame;

  constructor(private readonly ask: UrlAsk, onAnswer: (answer: Extract<AskAnswer, { kind: 'url' }>) => void) {
    this.frame = new AskFrame('div', 'url', ask.askId, `${ask.server} asks you to open a page`, 'info', [h('code', { text: ask.server }), ' asks you to open a page']);
    this.frame.body.append(
      h('div', { class: 'ask-message-text', text: ask.message }),
      h('dl', { class: 'ask-facts' }, h('dt', { text: 'Site' }), h('dd', {}, h('code', { class: 'ask-site', text: siteOf(ask.url) })), h('dt', { text: 'Address' }), h('dd', {}, h('code', { class: 'ask-url', text: ask.url }))),
      h('div', { class: 'ask-note', text: 'It opens in your browser only if you choose Open.' }),
    );
    const answer = (action: 'accept' | 'decline' | 'cancel'): void => {
      this.frame.sent();
      onAnswer({ kind: 'url', action });
    };
    this.frame.actions.append(
      this.frame.button('Open', 'btn-primary', 'accept', () => answer('accept')),
      this.frame.button('Decline', 'btn-secondary', 'decline', () => answer('decline')),
      this.frame.button('Cancel', 'btn-secondary', 'cancel', () => answer('cancel')),
    );
  }

  get el(): HTMLElement {
    return this.frame.el;
  }

  get isPending(): boolean {
    return this.frame.isPending;
  }

  get announcement(): string {
    return `${this.ask.server} asks you to open a page on ${siteOf(this.ask.url)}.`;
  }

  settle(outcome: AskOutcome): void {
    const text: Partial<Record<AskOutcome, string>> = { accept: 'Opened', decline: 'Declined', cancel: 'Cancelled', withdrawn: 'Withdrawn: the server no longer asks' };
    this.frame.settle(outcome, text[outcome] ?? 'Answered');
  }
}

function siteOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
