/**
 * A tool call waiting for the person: reason, warnings, preview, and Allow once / Always / Deny.
 * "Always" comes in four kinds: for an ordinary tool one button; for running code a separate,
 * confirmed choice (code can change any file, .vscode and .git included); for the hosts a call would
 * send data to, one button naming them; none for files that always ask and for outbound calls while
 * a secret is in the conversation.
 */
import type { AlwaysKind, ApprovalDecision } from '../../src/common/protocol';
import { h, icon } from './dom';

export interface ApprovalInfo {
  callId: string;
  server: string;
  tool: string;
  reason: string;
  preview?: string;
  warnings?: string[];
  notes?: string[];
  /** For running code: the gist of the notes and warnings; they go behind a disclosure under it. */
  summary?: { text: string; warning: boolean };
  alwaysKind?: AlwaysKind;
  /** With alwaysKind 'host': the hosts "always" allows. */
  hosts?: string[];
  /** Asked for by an MCP App's view, not by the model. */
  fromApp?: boolean;
}

const ALWAYS_TOOL = 'Always allow in this workspace';
const ALWAYS_CODE_OPEN = 'Always run code without asking…';
const ALWAYS_CODE_QUESTION = 'Always run code in this workspace without asking?';
const ALWAYS_CODE_WHY = 'It can change any file here, including .vscode and .git. "MCP Agent: Reset Tool Approvals for This Workspace" undoes it.';
const ALWAYS_CODE_CONFIRM = 'Yes, always run code';

const DECISION_TEXT: Record<AlwaysKind, Record<ApprovalDecision, string>> = {
  tool: { once: 'Allowed once', always: 'Always allowed in this workspace', deny: 'Denied' },
  code: { once: 'Allowed once', always: 'Code runs without asking in this workspace', deny: 'Denied' },
  host: { once: 'Allowed once', always: 'Always allowed in this workspace', deny: 'Denied' },
  none: { once: 'Allowed once', always: 'Allowed once', deny: 'Denied' },
};

export class ApprovalCard {
  readonly el: HTMLElement;
  private readonly actions: HTMLElement;
  private readonly outcome: HTMLElement;
  private readonly kind: AlwaysKind;

  constructor(info: ApprovalInfo, onDecide: (callId: string, decision: ApprovalDecision) => void, onReview?: () => void) {
    this.kind = info.alwaysKind ?? 'tool';
    const decide = (decision: ApprovalDecision): void => {
      // The host answers with an `approval` event; until then one click is all it gets.
      for (const b of Array.from(this.el.querySelectorAll('button'))) b.disabled = true;
      this.el.classList.add('deciding');
      onDecide(info.callId, decision);
    };
    const button = (decision: ApprovalDecision, text: string, cls: string): HTMLButtonElement =>
      h('button', { class: `btn ${cls}`, text, attrs: { type: 'button', 'data-decision': decision }, onClick: () => decide(decision) });

    const row = h('div', { class: 'approval-buttons' }, button('once', 'Allow once', 'btn-primary'));
    if (this.kind === 'tool') row.append(button('always', ALWAYS_TOOL, 'btn-secondary'));
    if (this.kind === 'host') row.append(button('always', `Always allow ${(info.hosts ?? []).join(', ')} in this workspace`, 'btn-secondary'));
    row.append(button('deny', 'Deny', 'btn-secondary btn-deny'));
    // A file change is reviewed in the editor's diff; this brings the diff back if it was closed.
    if (onReview) row.append(h('button', { class: 'btn btn-secondary review', text: 'Review changes', attrs: { type: 'button' }, onClick: onReview }));
    this.actions = h('div', { class: 'approval-actions' }, row);
    if (this.kind === 'code') this.actions.append(...this.alwaysCode(info.callId, button('always', ALWAYS_CODE_CONFIRM, 'btn-danger')));

    this.outcome = h('div', { class: 'approval-outcome', attrs: { role: 'status' } });
    this.outcome.hidden = true;
    const warnings = info.warnings ?? [];
    const notes = info.notes ?? [];
    this.el = h(
      'div',
      {
        class: 'approval',
        attrs: {
          'data-call-id': info.callId,
          'data-state': 'pending',
          'data-always': this.kind,
          ...(info.fromApp ? { 'data-from-app': 'true' } : {}),
          role: 'group',
          'aria-label': `Approve ${info.server} ${info.tool}`,
        },
      },
      h('div', { class: 'approval-title' }, icon('shield', 'approval-icon'), 'Allow ', h('code', { text: `${info.server} · ${info.tool}` }), '?'),
      // A call a view asked for is the app's, not the model's: the person should know who wants it.
      info.fromApp ? h('div', { class: 'approval-from-app', text: `Asked by the interactive view of ${info.server}, not by the model.` }) : null,
      h('div', { class: 'approval-reason', text: info.reason }),
      ...(info.summary ? [summarized(info.summary, notes, warnings)] : noteAndWarningLists(notes, warnings)),
      info.preview ? h('pre', { class: 'approval-preview', text: info.preview, attrs: { tabindex: '0', 'aria-label': 'Preview' } }) : null,
      this.actions,
      this.outcome,
    );
  }

  /**
   * "Always" for code: a quiet link-style button that opens a confirmation saying what it means,
   * with the real button inside. Keyboard: Enter opens and focuses the confirm button; Escape or
   * Cancel closes and gives focus back.
   */
  private alwaysCode(callId: string, confirm: HTMLButtonElement): HTMLElement[] {
    const panelId = `always-code-${callId}`;
    const open = h('button', {
      class: 'link-button approval-always-code',
      text: ALWAYS_CODE_OPEN,
      attrs: { type: 'button', 'aria-expanded': 'false', 'aria-controls': panelId },
    });
    const cancel = h('button', { class: 'btn btn-secondary', text: 'Cancel', attrs: { type: 'button', 'data-action': 'cancel-always' } });
    const panel = h(
      'div',
      { class: 'approval-confirm', attrs: { id: panelId, role: 'group', 'aria-label': ALWAYS_CODE_QUESTION } },
      h('p', { class: 'approval-confirm-text' }, h('strong', { text: ALWAYS_CODE_QUESTION }), ' ', ALWAYS_CODE_WHY),
      h('div', { class: 'approval-buttons' }, confirm, cancel),
    );
    panel.hidden = true;
    const show = (visible: boolean): void => {
      panel.hidden = !visible;
      open.setAttribute('aria-expanded', String(visible));
      (visible ? confirm : open).focus();
    };
    open.addEventListener('click', () => show(panel.hidden));
    cancel.addEventListener('click', () => show(false));
    panel.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      // Escape here closes the question; it must not reach the chat, where it stops the turn.
      e.stopPropagation();
      e.preventDefault();
      show(false);
    });
    return [open, panel];
  }

  get isDenied(): boolean {
    return this.el.dataset.state === 'deny';
  }

  get isPending(): boolean {
    return this.el.dataset.state === 'pending';
  }

  decide(decision: ApprovalDecision): void {
    this.settle(decision, DECISION_TEXT[this.kind][decision]);
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

function noteAndWarningLists(notes: string[], warnings: string[]): Array<HTMLElement | false> {
  return [
    notes.length > 0 && h('ul', { class: 'approval-notes' }, ...notes.map((n) => h('li', { class: 'approval-note' }, icon('shield'), h('span', { text: n })))),
    warnings.length > 0 &&
      h(
        'ul',
        { class: 'approval-warnings', attrs: { 'aria-label': 'Warnings' } },
        ...warnings.map((w) => h('li', { class: 'approval-warning' }, icon('warning'), h('span', { text: w }))),
      ),
  ];
}

/**
 * The gist on one line, read at a glance in a 300 px side bar, with the full notes and warnings (a sandbox's
 * paragraph, what code can reach) one click away under it.
 */
function summarized(summary: { text: string; warning: boolean }, notes: string[], warnings: string[]): HTMLElement {
  return h(
    'details',
    { class: `approval-details${summary.warning ? ' is-warning' : ''}` },
    h(
      'summary',
      { class: 'approval-summary' },
      icon(summary.warning ? 'warning' : 'shield', 'approval-summary-icon'),
      h('span', { class: 'approval-summary-text', text: summary.text }),
      h('span', { class: 'approval-summary-more', text: 'Details' }),
      icon('chevron', 'approval-summary-chevron'),
    ),
    ...noteAndWarningLists(notes, warnings),
  );
}
