/**
 * A server asks the person to open a page (URL-mode elicitation): the whole address is shown, and whose
 * page it is stands apart: the site (the registrable domain the host worked out from the Public Suffix
 * List) in bold, alone and within the host, so `login.example.com.evil.io` reads as a page of `evil.io`.
 * An international name is shown as sent (`xn--…`) with a warning saying how it reads. Nothing opens
 * unless the person chooses Open (the host opens it then).
 */
import type { AskAnswer, AskOutcome, ClientAsk } from '../../src/common/protocol';
import { AskFrame } from './ask-card';
import { askWarning } from './ask-warning';
import { h } from './dom';

type UrlAsk = Extract<ClientAsk, { kind: 'url' }>;

export class UrlCard {
  private readonly frame: AskFrame;

  constructor(
    private readonly ask: UrlAsk,
    onAnswer: (answer: Extract<AskAnswer, { kind: 'url' }>) => void,
  ) {
    const { domain, unicode } = ask.site;
    this.frame = new AskFrame('div', 'url', ask.askId, `${ask.server} asks you to open a page on ${domain}`, 'info', [
      h('code', { text: ask.server }),
      ' asks you to open a page',
    ]);
    const host = hostWithSite(ask.site.host, domain);
    this.frame.body.append(
      unicode
        ? askWarning([
            `This site's name has letters outside a–z, so it is shown as your browser sends it (${domain}). Written out it reads “${unicode}”, which can pass for another site's name.`,
          ])
        : '',
      h('div', { class: 'ask-message-text', text: ask.message }),
      h(
        'dl',
        { class: 'ask-facts' },
        h('dt', { text: 'Site' }),
        h('dd', {}, h('code', { class: 'ask-site', text: domain })),
        host ? h('dt', { text: 'Host' }) : null,
        host ? h('dd', {}, host) : null,
        h('dt', { text: 'Address' }),
        h('dd', {}, h('code', { class: 'ask-url', text: ask.url })),
      ),
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
    const idn = this.ask.site.unicode ? ` Warning: its name has letters outside a–z and reads “${this.ask.site.unicode}”.` : '';
    return `${this.ask.server} asks you to open a page on ${this.ask.site.domain}.${idn}`;
  }

  settle(outcome: AskOutcome): void {
    const text: Partial<Record<AskOutcome, string>> = {
      accept: 'Opened',
      decline: 'Declined',
      cancel: 'Cancelled',
      withdrawn: 'Withdrawn: the server no longer asks',
    };
    this.frame.settle(outcome, text[outcome] ?? 'Answered');
  }
}

/** The host with its site in bold (`login.example.com.` **evil.io**), when there is more to it than the site. */
function hostWithSite(host: string, domain: string): HTMLElement | null {
  const [, name = host, port = ''] = /^(.*?)(:\d+)?$/.exec(host) ?? [];
  if (name === domain || !name.endsWith(`.${domain}`)) return null;
  return h('code', { class: 'ask-host' }, name.slice(0, name.length - domain.length), h('strong', { text: domain }), port);
}
