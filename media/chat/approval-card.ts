/** A tool call waiting for the person: reason, preview, and Allow once / Always allow / Deny. */
import type { ApprovalDecision } from '../../src/shared/protocol';
import { h, icon } from './dom';

export interface ApprovalInfo {
  callId: string;
  server: string;
  tool: string;
  reason: string;
  preview?: string;
}

const DECISION_TEXT: Record<ApprovalDecision, string> = {
  once: 'Allowed once',
  always: 'Always allowed in this workspace',
  deny: 'Denied',
};

export class ApprovalCard {
  readonly el: HTMLElement;
  private readonly actions: HTMLElement;
  private readonly outcome: HTMLElement;

  constructor(info: ApprovalInfo, onDecide: (callId: string, decision: ApprovalDecision) => void) {
    const button = (decision: ApprovalDecision, text: string, cls: string): HTMLButtonElement => {
      const b = h('button', { class: `btn ${cls}`, text, attrs: { type: 'button', 'data-decision': decision } });
      b.addEventListener('click', () => {
        // The host answers with an `approval` event; until then one click is all it gets.
        for (const other of Array.from(this.actions.querySelectorAll('button'))) other.disabled = true;
        this.el.classList.add('deciding');
        onDecide(info.callId, decision);
      });
      return b;
    };
    this.actions = h(
      'div',
      { class: 'approval-actions' },
      button('once', 'Allow once', 'btn-primary'),
      button('always', 'Always allow in this workspace', 'btn-secondary'),
      button('deny', 'Deny', 'btn-secondary btn-deny'),
    );
    this.outcome = h('div', { class: 'approval-outcome', attrs: { role: 'status' } });
    this.outcome.hidden = true;
    this.el = h(
      'div',
      { class: 'approval', attrs: { 'data-call-id': info.callId, 'data-state': 'pending', role: 'group', 'aria-label': `Approve ${info.server} ${info.tool}` } },
      h('div', { class: 'approval-title' }, icon('shield', 'approval-icon'), 'Allow ', h('code', { text: `${info.server} · ${info.tool}` }), '?'),
      h('div', { class: 'approval-reason', text: info.reason }),
      info.preview ? h('pre', { class: 'approval-preview', text: info.preview, attrs: { tabindex: '0', 'aria-label': 'Preview' } }) : null,
      this.actions,
      this.outcome,
    );
  }

  get isPending(): boolean {
    return this.el.dataset.state === 'pending';
  }

  decide(decision: ApprovalDecision): void {
    this.settle(decision, DECISION_TEXT[decision]);
  }

  /** The turn ended with no decision (stopped, error): the question no longer stands. */
  expire(): void {
    if (this.isPending) this.settle('expired', 'No decision: the turn ended');
  }

  private settle(state: string, text: string): void {
    this.el.dataset.state = state;
    this.el.classList.remove('deciding');
    this.actions.remove();
    this.outcome.hidden = false;
    this.outcome.replaceChildren(icon(state === 'deny' || state === 'expired' ? 'close' : 'check'), h('span', { text }));
  }
}
