/**
 * What every card for a server's ask shares: the frame (who asks, announced like an approval), buttons
 * that answer once and then wait for the host, and the line the card shrinks to once it is settled.
 */
import type { AskOutcome } from '../../src/common/protocol';
import { h, icon, type IconName } from './dom';

export class AskFrame {
  readonly el: HTMLElement;
  readonly body: HTMLElement;
  readonly actions: HTMLElement;
  private readonly outcome: HTMLElement;

  constructor(tag: 'div' | 'form', kind: string, askId: string, label: string, titleIcon: IconName, title: (Node | string)[]) {
    this.body = h('div', { class: 'ask-body' });
    this.actions = h('div', { class: 'ask-buttons' });
    this.outcome = h('div', { class: 'ask-outcome', attrs: { role: 'status' } });
    this.outcome.hidden = true;
    this.el = h(
      tag,
      { class: `ask-card ask-${kind}`, attrs: { 'data-ask-id': askId, 'data-kind': kind, 'data-state': 'pending', role: 'group', 'aria-label': label } },
      h('div', { class: 'ask-title' }, icon(titleIcon, 'ask-icon'), ...title),
      this.body,
      this.actions,
      this.outcome,
    );
    // Escape inside a card must not reach the chat, where it stops the running turn.
    this.el.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') e.stopPropagation();
    });
  }

  get isPending(): boolean {
    return this.el.dataset.state === 'pending';
  }

  button(text: string, cls: string, answer: string, onClick: () => void, type: 'button' | 'submit' = 'button'): HTMLButtonElement {
    return h('button', { class: `btn ${cls}`, text, attrs: { type, 'data-answer': answer }, onClick: type === 'button' ? onClick : undefined });
  }

  /** One answer is sent; the buttons wait for the host to say it is settled. */
  sent(): void {
    this.el.classList.add('deciding');
    for (const b of Array.from(this.el.querySelectorAll<HTMLButtonElement>('.ask-buttons button'))) b.disabled = true;
  }

  settle(outcome: AskOutcome, text: string): void {
    this.el.dataset.state = outcome;
    this.el.classList.remove('deciding');
    this.actions.remove();
    for (const c of Array.from(this.el.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select, textarea'))) c.disabled = true;
    this.outcome.hidden = false;
    const bad = outcome === 'deny' || outcome === 'decline' || outcome === 'cancel' || outcome === 'withdrawn';
    this.outcome.replaceChildren(icon(bad ? 'close' : 'check'), h('span', { text }));
  }
}
