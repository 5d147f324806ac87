/**
 * A server asks the model for a reply (MCP sampling): the card shows who asks, the system prompt, the
 * messages (images drawn), the token limit, the model hint and the model that would answer, with
 * Allow once / Always for this server (or view) / Deny. Nothing reaches the model before the person answers.
 * "Always" is up to a token budget (the card says how much); a server whose budget is spent asks again,
 * and its card says first how much it used.
 */
import type { ApprovalDecision, AskContent, AskOutcome, ClientAsk } from '../../src/common/protocol';
import { AskFrame } from './ask-card';
import { askWarning } from './ask-warning';
import { h } from './dom';

type SamplingAsk = Extract<ClientAsk, { kind: 'sampling' }>;

const ROLE: Record<'user' | 'assistant', string> = { user: 'User', assistant: 'Assistant' };

export class SamplingCard {
  private readonly frame: AskFrame;

  constructor(
    private readonly ask: SamplingAsk,
    onDecide: (decision: ApprovalDecision) => void,
  ) {
    this.frame = new AskFrame('div', 'sampling', ask.askId, `${ask.server} asks the model for a reply`, 'sparkle', [
      h('code', { text: ask.server }),
      ' asks the model for a reply',
    ]);
    const facts = h(
      'dl',
      { class: 'ask-facts' },
      h('dt', { text: 'Would answer' }),
      h('dd', {}, h('code', { class: 'ask-model', text: ask.model })),
      ask.modelHint ? h('dt', { text: 'Model hint' }) : null,
      ask.modelHint ? h('dd', { class: 'ask-model-hint', text: ask.modelHint }) : null,
      h('dt', { text: 'Token limit' }),
      h('dd', { class: 'ask-max-tokens', text: `${ask.maxTokens.toLocaleString('en-US')}${askedText(ask.asked)}` }),
      ask.tools.length > 0 ? h('dt', { text: 'Tools offered' }) : null,
      ask.tools.length > 0 ? h('dd', { class: 'ask-tools', text: ask.tools.join(', ') }) : null,
      ask.alwaysLimit !== undefined ? h('dt', { text: 'Always' }) : null,
      ask.alwaysLimit !== undefined
        ? h('dd', { class: 'ask-always-limit', text: `up to ${count(ask.alwaysLimit)} tokens until the window closes, then it asks again` })
        : null,
    );
    const spent = ask.spent
      ? askWarning([
          `${ask.server} had “Always” and has used its budget: ${count(ask.spent.used)} of ${count(ask.spent.limit)} tokens. It asks again; Always starts a new budget.`,
        ])
      : null;
    const system = ask.systemPrompt
      ? h(
          'div',
          { class: 'ask-system' },
          h('div', { class: 'ask-label', text: 'System prompt' }),
          h('pre', { class: 'ask-text', text: ask.systemPrompt, attrs: { tabindex: '0', 'aria-label': 'System prompt' } }),
        )
      : null;
    const messages = h(
      'ol',
      { class: 'ask-messages', attrs: { 'aria-label': 'Messages' } },
      ...ask.messages.map((m) =>
        h('li', { class: 'ask-message', attrs: { 'data-role': m.role } }, h('div', { class: 'ask-label', text: ROLE[m.role] }), ...m.content.map(content)),
      ),
    );
    this.frame.body.append(spent ?? '', facts, system ?? '', messages);
    const decide = (decision: ApprovalDecision): void => {
      this.frame.sent();
      onDecide(decision);
    };
    this.frame.actions.append(
      this.frame.button('Allow once', 'btn-primary', 'once', () => decide('once')),
      this.frame.button(ask.byView ? 'Always for this view' : 'Always for this server', 'btn-secondary', 'always', () => decide('always')),
      this.frame.button('Deny', 'btn-secondary btn-deny', 'deny', () => decide('deny')),
    );
  }

  get el(): HTMLElement {
    return this.frame.el;
  }

  get isPending(): boolean {
    return this.frame.isPending;
  }

  /** What a screen reader hears when the card appears. */
  get announcement(): string {
    const spent = this.ask.spent ? ` Its budget after “Always” is used: ${count(this.ask.spent.used)} of ${count(this.ask.spent.limit)} tokens.` : '';
    return `${this.ask.server} asks the model for a reply, on ${this.ask.model}.${spent} Allow once, always for this server, or deny.`;
  }

  settle(outcome: AskOutcome): void {
    const text: Partial<Record<AskOutcome, string>> = {
      once: 'Allowed once',
      always: `Always allowed for ${this.ask.server}${this.ask.alwaysLimit !== undefined ? `, up to ${count(this.ask.alwaysLimit)} tokens` : ''} (until the window closes)`,
      deny: 'Denied',
      withdrawn: 'Withdrawn: the server no longer asks',
    };
    this.frame.settle(outcome, text[outcome] ?? 'Answered');
  }
}

function content(c: AskContent): HTMLElement {
  switch (c.type) {
    case 'text':
      return h('div', { class: 'ask-text', text: c.text });
    case 'image':
      // data: is the only image source the page's CSP allows besides the extension's own files.
      return h('img', { class: 'ask-image', attrs: { src: `data:${c.mimeType};base64,${c.data}`, alt: `An image the server sent (${c.mimeType})` } });
    case 'other':
      return h('div', { class: 'ask-other', text: c.label });
  }
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** " (it asked for 1,000,000: the model writes at most this)": a request taken down to a limit says so. */
function askedText(asked: { maxTokens: number; limitedBy: 'model' | 'budget' } | undefined): string {
  if (!asked) return '';
  const why = asked.limitedBy === 'model' ? 'the model writes at most this' : 'the most “Always” allows';
  return ` (it asked for ${asked.maxTokens.toLocaleString('en-US')}: ${why})`;
}
