/**
 * What a person can do with a message once it is there: edit one of theirs and send it again from that point,
 * ask for an answer again, copy an answer as the Markdown the model wrote. Going back is the host's to do (it
 * may ask about later messages and files changed since); the page asks and shows why when it cannot.
 */
import type { GoneBack } from '../../src/common/requests';
import { h, icon } from './dom';

export interface MessageActionDeps {
  /** Edit and resend: the chat goes back to before the message `id` and sends `text` in its place. */
  onEdit: (id: string, text: string) => Promise<GoneBack>;
  /** The chat goes back to just after the message `id` and asks for its answer again. */
  onRegenerate: (id: string) => Promise<GoneBack>;
  onCopy: (text: string) => void;
}

/** How long "Copied" shows before the button says Copy again. */
const COPIED_MS = 1500;

function iconButton(name: 'edit' | 'retry' | 'copy', label: string, cls: string): HTMLButtonElement {
  return h('button', { class: `icon-button msg-action ${cls}`, attrs: { type: 'button', title: label, 'aria-label': label } }, icon(name));
}

/** Under one of the person's messages: Edit, which opens the message for editing in place. */
export function userActions(bubble: HTMLElement, id: string, text: string, deps: MessageActionDeps): HTMLElement {
  const edit = iconButton('edit', 'Edit and resend from here', 'edit-message');
  const row = h('div', { class: 'msg-actions user-actions', attrs: { 'data-for': id } }, edit);
  edit.addEventListener('click', () => {
    row.hidden = true;
    editInPlace(bubble, id, text, deps, () => {
      row.hidden = false;
      edit.focus();
    });
  });
  return row;
}

/**
 * Under an answer: Copy when it has text (as the model wrote it) and, when its question can be gone back to,
 * Regenerate.
 */
export function answerActions(markdown: (() => string) | undefined, questionId: string | undefined, deps: MessageActionDeps): HTMLElement {
  const row = h('div', { class: 'msg-actions answer-actions' });
  if (markdown) row.append(copyButton(markdown, deps.onCopy));
  if (questionId) {
    const again = iconButton('retry', 'Regenerate this answer', 'regenerate');
    const note = h('span', { class: 'msg-action-note', attrs: { role: 'status' } });
    again.addEventListener('click', () => {
      again.disabled = true;
      note.textContent = '';
      void deps.onRegenerate(questionId).then(
        (r) => settled(r, note, again),
        (err: unknown) => settled({ done: false, why: String(err) }, note, again),
      );
    });
    row.append(again, note);
  }
  return row;
}

function copyButton(markdown: () => string, onCopy: (text: string) => void): HTMLButtonElement {
  const copy = iconButton('copy', 'Copy as Markdown', 'copy-answer');
  copy.addEventListener('click', () => {
    onCopy(markdown());
    copy.classList.add('copied');
    copy.replaceChildren(icon('check'));
    setTimeout(() => {
      copy.classList.remove('copied');
      copy.replaceChildren(icon('copy'));
    }, COPIED_MS);
  });
  return copy;
}

/** The host said no (why, shown) or the person did (nothing to say): the button works again. */
function settled(result: GoneBack, note: HTMLElement, button: HTMLButtonElement): void {
  if (result.done) return;
  button.disabled = false;
  note.textContent = result.why ?? '';
}

/**
 * The message becomes a text box with Send and Cancel. Enter sends (Shift+Enter: a new line), Escape cancels
 * (and does not reach the chat, where it would stop a turn). When the host goes back, the whole chat is drawn
 * again from what it now holds; when it does not, the box stays, saying why.
 */
function editInPlace(bubble: HTMLElement, id: string, text: string, deps: MessageActionDeps, onClose: () => void): void {
  const shown = Array.from(bubble.childNodes);
  const box = h('textarea', { class: 'edit-input', attrs: { rows: String(Math.min(10, text.split('\n').length + 1)), 'aria-label': 'Edit your message' } });
  box.value = text;
  const send = h('button', { class: 'btn btn-primary edit-send', attrs: { type: 'button' } }, icon('send'), h('span', { text: 'Send' }));
  const cancel = h('button', { class: 'btn btn-secondary edit-cancel', text: 'Cancel', attrs: { type: 'button' } });
  const why = h('div', { class: 'edit-why', attrs: { role: 'alert' } });
  const hint = h('div', { class: 'edit-hint', text: 'Sending replaces this message and everything after it.' });
  // The attachments go with the message again (read as they are then); only its text is edited.
  const chips = shown.filter((n): n is HTMLElement => n instanceof HTMLElement && n.classList.contains('attachments'));
  bubble.classList.add('editing');
  bubble.replaceChildren(...chips, box, hint, why, h('div', { class: 'edit-buttons' }, send, cancel));
  const close = (): void => {
    bubble.classList.remove('editing');
    bubble.replaceChildren(...shown);
    onClose();
  };
  const submit = (): void => {
    const value = box.value.trim();
    if (!value) return;
    send.disabled = box.disabled = true;
    why.textContent = '';
    void deps.onEdit(id, value).then(
      (r) => {
        if (r.done) return;
        send.disabled = box.disabled = false;
        why.textContent = r.why ?? '';
        box.focus();
      },
      (err: unknown) => {
        send.disabled = box.disabled = false;
        why.textContent = String(err);
      },
    );
  };
  send.addEventListener('click', submit);
  cancel.addEventListener('click', close);
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      submit();
    }
  });
  box.focus();
  box.setSelectionRange(box.value.length, box.value.length);
}
