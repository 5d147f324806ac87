/**
 * A server asks the person to fill in a form (MCP elicitation): every field kind the spec allows,
 * defaults filled in, checked in the card before anything is sent (the error beside its field, the
 * first wrong field focused). Accept sends; Decline says no; Cancel dismisses without an answer.
 * Fields that look like they ask for a secret (the host's guess, secret-fields.ts) are marked, and the
 * card says first, in a warning box, not to type one: MCP forbids servers to ask for secrets in a form.
 */
import type { AskAnswer, AskOutcome, ClientAsk } from '../../src/common/protocol';
import type { FieldValue } from '../../src/common/form-field';
import { AskFrame } from './ask-card';
import { askWarning } from './ask-warning';
import { h, icon } from './dom';
import { fieldControl, type FieldControl } from './form-fields';

type FormAsk = Extract<ClientAsk, { kind: 'form' }>;

export class ElicitationCard {
  private readonly frame: AskFrame;
  private readonly controls: FieldControl[];

  constructor(
    private readonly ask: FormAsk,
    onAnswer: (answer: Extract<AskAnswer, { kind: 'form' }>) => void,
  ) {
    this.frame = new AskFrame('form', 'form', ask.askId, `${ask.server} asks you to fill in a form`, 'info', [h('code', { text: ask.server }), ' asks']);
    const form = this.frame.el as HTMLFormElement;
    form.noValidate = true;
    this.controls = ask.fields.map((f) => fieldControl(f, `ask-${ask.askId}`));
    const secret = this.controls.filter((c) => ask.secretFields?.includes(c.field.name));
    for (const c of secret) markSecret(c);
    const warning =
      secret.length > 0
        ? askWarning([
            secretWarning(
              ask.server,
              secret.map((c) => c.field.title),
            ),
          ])
        : null;
    this.frame.body.append(
      warning ?? '',
      h('div', { class: 'ask-message-text', text: ask.message }),
      h('div', { class: 'ask-fields' }, ...this.controls.map((c) => c.el)),
    );
    const answer = (a: Extract<AskAnswer, { kind: 'form' }>): void => {
      this.frame.sent();
      onAnswer(a);
    };
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (!this.frame.isPending) return;
      const content = this.collect();
      if (content) answer({ kind: 'form', action: 'accept', content });
    });
    this.frame.actions.append(
      this.frame.button('Accept', 'btn-primary', 'accept', () => undefined, 'submit'),
      this.frame.button('Decline', 'btn-secondary', 'decline', () => answer({ kind: 'form', action: 'decline' })),
      this.frame.button('Cancel', 'btn-secondary', 'cancel', () => answer({ kind: 'form', action: 'cancel' })),
    );
  }

  get el(): HTMLElement {
    return this.frame.el;
  }

  get isPending(): boolean {
    return this.frame.isPending;
  }

  get announcement(): string {
    const secret = this.ask.secretFields?.length ? '. Warning: it asks for what looks like a secret; do not type one.' : '';
    return `${this.ask.server} asks you to fill in a form: ${this.ask.message.slice(0, 200)}${secret}`;
  }

  /** What was filled in, or undefined after showing each error and focusing the first wrong field. */
  private collect(): Record<string, FieldValue> | undefined {
    const content: Record<string, FieldValue> = {};
    let first: FieldControl | undefined;
    for (const c of this.controls) {
      if (!c.check()) {
        first ??= c;
        continue;
      }
      const r = c.read();
      if ('value' in r && r.value !== undefined) content[c.field.name] = r.value;
    }
    if (first) {
      first.focusTarget.focus();
      return undefined;
    }
    return content;
  }

  settle(outcome: AskOutcome): void {
    const text: Partial<Record<AskOutcome, string>> = {
      accept: 'Sent',
      decline: 'Declined',
      cancel: 'Cancelled',
      withdrawn: 'Withdrawn: the server no longer asks',
    };
    this.frame.settle(outcome, text[outcome] ?? 'Answered');
  }
}

/** What the warning box says: which fields, why not, and where a typed secret would go. */
function secretWarning(server: string, titles: string[]): string {
  return (
    `This form asks for what looks like a secret (${titles.join(', ')}). MCP servers must not ask for passwords, keys, ` +
    `codes or card numbers in a form: do not type one here. Whatever you type goes to ${server} as it is.`
  );
}

/** The field's label says so too, so it is heard with the field. */
function markSecret(c: FieldControl): void {
  c.el.classList.add('ask-field-secret');
  c.el.querySelector('.ask-field-label')?.append(h('span', { class: 'ask-secret-tag' }, icon('warning'), h('span', { text: 'looks like a secret' })));
}
