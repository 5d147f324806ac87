/**
 * The input area: attachment chips, an auto-growing textarea, Send / Stop.
 * Enter sends, Shift+Enter is a newline, Escape stops a running turn.
 */
import type { Mention, Outgoing, Sent, SlashItem } from '../../src/common/requests';
import { h, icon, type IconName } from './dom';
import { MentionPopup } from './mention-popup';
import { SlashPopup } from './slash-popup';
import { SendQueue } from './send-queue';
import { AttachmentChips } from './attachment-chips';
import { SentRecall } from './sent-recall';

const MAX_TEXT = 200_000;

export interface ComposerDeps {
  /** Sends the person's message; settles once it is in the chat, or refused (a turn still runs), and then says why. */
  onSend: (message: Outgoing) => Promise<Sent>;
  onStop: () => void;
  onDraft: (text: string) => void;
  /** The model button, or `/model` sent as a message. */
  onPickModel: () => void;
  /** Asks the host what `@query` could attach. */
  completeMentions: (query: string) => Promise<Mention[]>;
  /** Says something to a screen reader without moving the focus. */
  announce: (text: string) => void;
  /** A slash command (`/tools`, `/prompt s/n`): the host runs it; it is never sent to the model as text. */
  onSlash: (text: string) => void;
  /** Asks the host what the `/` list offers for the text so far. */
  completeSlash: (text: string) => Promise<SlashItem[]>;
}

/** `@` and what follows it, up to the caret (an e-mail address is not a mention: `@` must start a word). */
const MENTION = /(^|\s)@([^\s@]{0,100})$/;

export class Composer {
  readonly el: HTMLElement;
  readonly input: HTMLTextAreaElement;
  private readonly send: HTMLButtonElement;
  private readonly stop: HTMLButtonElement;
  private readonly chips: AttachmentChips;
  private readonly hint: HTMLElement;
  private readonly modelButton: HTMLButtonElement;
  private readonly mentions: MentionPopup;
  private readonly slash: SlashPopup;
  /** Counts `/` requests: only the newest one's answer is shown. */
  private slashRequest = 0;
  /** The text the `/` list's items were offered for: typed past it, Enter runs what is typed, not a stale item. */
  private slashFor: string | undefined;
  /** Says why an `@` pick was refused; gone on the next keystroke. */
  private readonly note: HTMLElement;
  /** Counts `@` requests: only the newest one's answer is shown. */
  private mentionRequest = 0;
  private mentionTimer: ReturnType<typeof setTimeout> | undefined;
  private busy = false;
  /** What was sent during a turn, to go when it ends. */
  private readonly queue: SendQueue;
  /** A message on its way to the host: no other goes until it is answered, so they go one at a time, in order. */
  private sending = false;
  /** What was sent, for Up / Down. */
  private readonly recall = new SentRecall();

  constructor(private readonly deps: ComposerDeps) {
    this.input = h('textarea', {
      attrs: { id: 'input', rows: '1', placeholder: 'Ask the agent…', 'aria-label': 'Message', spellcheck: 'true' },
    });
    this.send = h('button', { class: 'icon-button send', attrs: { id: 'send', type: 'button', title: 'Send (Enter)', 'aria-label': 'Send' } }, icon('send'));
    this.stop = h('button', { class: 'icon-button stop', attrs: { id: 'stop', type: 'button', title: 'Stop (Escape)', 'aria-label': 'Stop' } }, icon('stop'));
    this.stop.hidden = true;
    this.hint = h('div', { class: 'composer-hint' });
    this.modelButton = h('button', { class: 'model-button', attrs: { type: 'button', title: 'Choose the model (/model)' } });
    this.modelButton.hidden = true;
    this.modelButton.addEventListener('click', () => this.deps.onPickModel());
    this.mentions = new MentionPopup(this.input, (item) => this.pickMention(item));
    this.slash = new SlashPopup(this.input, (item, run) => this.pickSlash(item, run));
    this.note = h('div', { class: 'composer-note', attrs: { role: 'status' } });
    this.note.hidden = true;
    this.chips = new AttachmentChips(
      this.input,
      (text) => this.say(text),
      () => this.updateSend(),
    );
    this.queue = new SendQueue(deps.announce);
    this.el = h(
      'div',
      { class: 'composer', attrs: { id: 'composer' } },
      this.mentions.el,
      this.slash.el,
      this.queue.el,
      this.chips.el,
      this.note,
      h('div', { class: 'input-box' }, this.input, h('div', { class: 'input-actions' }, this.stop, this.send)),
      h('div', { class: 'composer-footer' }, this.modelButton, this.hint),
    );

    this.send.addEventListener('click', () => this.submit());
    this.stop.addEventListener('click', () => this.deps.onStop());
    this.input.addEventListener('input', () => {
      this.recall.edited();
      this.note.hidden = true;
      this.autoGrow();
      this.updateSend();
      this.deps.onDraft(this.input.value);
      this.lookForMention();
      this.lookForSlash();
    });
    this.input.addEventListener('blur', () => {
      this.mentions.close();
      this.slash.close();
    });
    this.input.addEventListener('paste', (e) => this.chips.paste(e));
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && this.slash.isOpen && this.slashFor !== this.input.value) this.slash.close();
      if (!e.isComposing && (this.mentions.key(e) || this.slash.key(e))) {
        e.preventDefault();
        return;
      }
      // Backspace in an empty input takes the last chip off, so chips come off by keyboard too.
      if (e.key === 'Backspace' && this.input.value === '' && this.chips.size > 0) {
        e.preventDefault();
        this.chips.removeLast();
        return;
      }
      // isComposing: Enter that confirms an IME candidate must not send.
      if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.isComposing) {
        e.preventDefault();
        this.submit();
      } else if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey && !e.isComposing) {
        if (this.recallStep(e.key === 'ArrowUp' ? -1 : 1)) e.preventDefault();
      }
    });
    this.updateSend();
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.stop.hidden = !busy;
    this.send.hidden = busy;
    this.input.placeholder = busy ? 'Queue a message for when this turn ends…' : 'Ask the agent…';
    this.updateSend();
    this.sendNext();
  }

  /** Sends `message` now, or queues it behind a running turn and what waits before it. */
  sendOrQueue(message: Outgoing): void {
    if (this.busy || this.sending || this.queue.size > 0) this.queue.add(message);
    else this.dispatch(message);
  }

  /**
   * The oldest queued message, once the host is idle and no other message is on its way. The host posts its
   * state several times as a turn ends: the first idle one sends a message, the rest find it on its way.
   */
  private sendNext(): void {
    if (this.busy || this.sending) return;
    const next = this.queue.next();
    if (next) this.dispatch(next);
  }

  /** One message to the host; refused (or lost on the way), it goes back first in line, and the note names it. */
  private dispatch(message: Outgoing): void {
    this.sending = true;
    void this.deps
      .onSend(message)
      .catch((err: unknown): Sent => ({ sent: false, why: err instanceof Error ? err.message : String(err) }))
      .then((answer) => {
        this.sending = false;
        if (answer.sent) return this.sendNext();
        this.queue.putBack(message);
        const why = `Not sent yet: “${clip(message.text)}”. ${answer.why ?? ''} It waits first in the queue and goes when the turn ends.`;
        this.note.textContent = why;
        this.note.hidden = false;
        this.deps.announce(why);
      });
  }

  get isBusy(): boolean {
    return this.busy;
  }

  /** The model the next turn uses, on the button that changes it. */
  setModel(model: string): void {
    this.modelButton.hidden = !model;
    this.modelButton.replaceChildren(h('span', { class: 'model-name', text: model }), icon('chevron', 'icon-down'));
    this.modelButton.setAttribute('aria-label', `Model: ${model}. Choose another`);
  }

  setHint(text: string): void {
    this.hint.textContent = text;
    this.hint.title = text;
  }

  attach(path: string, label: string, kind: IconName = 'file'): void {
    this.chips.attach(path, label, kind);
  }

  /** A note under the input saying why something was not done; gone on the next keystroke. */
  private say(text: string): void {
    this.note.textContent = text;
    this.note.hidden = false;
  }

  /** Asks what `@query` could attach; an answer to an older request, or one that fails, shows nothing. */
  private async requestMentions(query: string): Promise<void> {
    const ticket = ++this.mentionRequest;
    const items = await this.deps.completeMentions(query).catch(() => undefined);
    if (items && ticket === this.mentionRequest && this.mentionToken() !== undefined) this.mentions.show(items);
  }

  /** The `@query` being typed, if the caret is at the end of one. */
  private mentionToken(): { start: number; query: string } | undefined {
    const { value, selectionStart, selectionEnd } = this.input;
    if (selectionStart !== selectionEnd) return undefined;
    const match = MENTION.exec(value.slice(0, selectionStart));
    return match ? { start: selectionStart - match[2]!.length - 1, query: match[2]! } : undefined;
  }

  private lookForMention(): void {
    clearTimeout(this.mentionTimer);
    const token = this.mentionToken();
    if (!token) {
      this.mentions.close();
      return;
    }
    if (!this.mentions.isOpen) this.mentions.showLoading();
    this.mentionTimer = setTimeout(() => void this.requestMentions(token.query), 80);
  }

  /** The `@query` text gives way to a chip, or to a note saying why there is none. */
  private pickMention(item: Mention): void {
    const token = this.mentionToken();
    if (token) {
      const { value } = this.input;
      const end = token.start + 1 + token.query.length;
      this.input.value = value.slice(0, token.start) + value.slice(end);
      this.input.setSelectionRange(token.start, token.start);
      this.deps.onDraft(this.input.value);
    }
    if (item.refused) {
      this.note.textContent = `${item.label}: ${item.refused}`;
      this.note.hidden = false;
    } else {
      this.attach(
        item.ref,
        item.label,
        item.kind === 'folder' ? 'folder' : item.kind === 'selection' ? 'selection' : item.kind === 'problems' ? 'warning' : 'file',
      );
    }
    this.autoGrow();
    this.updateSend();
    this.input.focus();
  }

  /** Asks what the `/` list offers; an answer to an older request, to text no longer there, or one that fails, shows nothing. */
  private async requestSlash(text: string): Promise<void> {
    const ticket = ++this.slashRequest;
    const items = await this.deps.completeSlash(text).catch(() => undefined);
    if (!items || ticket !== this.slashRequest || this.slashText() !== text) return;
    this.slashFor = text;
    this.slash.show(items, text);
  }

  /** The text when it is a command being typed (one line, starting with a single `/`, caret at the end). */
  private slashText(): string | undefined {
    const { value, selectionStart, selectionEnd } = this.input;
    if (selectionStart !== selectionEnd || selectionEnd !== value.length) return undefined;
    return /^\/(?!\/)[^\n]{0,1000}$/.test(value) ? value : undefined;
  }

  private lookForSlash(): void {
    const text = this.slashText();
    if (text === undefined) {
      this.slash.close();
      return;
    }
    void this.requestSlash(text);
  }

  /** A picked command fills the input; Enter on one that is complete runs it, else the list goes on to its arguments. */
  private pickSlash(item: SlashItem, run: boolean): void {
    this.input.value = item.insert;
    this.autoGrow();
    this.updateSend();
    this.deps.onDraft(this.input.value);
    this.focus();
    if (run) this.submit();
    else this.lookForSlash();
  }

  fill(text: string): void {
    this.input.value = text;
    this.autoGrow();
    this.updateSend();
    this.deps.onDraft(text);
    this.focus();
  }

  /** Text the host offers for review (an MCP prompt): after the draft, so nothing typed is lost. */
  add(text: string): void {
    const draft = this.input.value.trimEnd();
    this.fill(draft ? `${draft}\n\n${text}` : text);
  }

  focus(): void {
    this.input.focus();
    const end = this.input.value.length;
    this.input.setSelectionRange(end, end);
  }

  /** The messages already sent in this chat (from a replay), for Up to recall. */
  remember(texts: string[]): void {
    this.recall.remember(texts);
  }

  /** Up / Down through what was sent (sent-recall.ts); false: the caret's own move. */
  private recallStep(step: -1 | 1): boolean {
    const text = this.recall.step(this.input, step);
    if (text === undefined) return false;
    this.input.value = text;
    this.autoGrow();
    this.updateSend();
    const end = this.input.value.length;
    this.input.setSelectionRange(end, end);
    return true;
  }

  private submit(): void {
    const text = this.input.value;
    const trimmed = text.trim();
    this.slash.close();
    if (trimmed.startsWith('/') && !trimmed.startsWith('//')) {
      // A command: run by the host (or here, /model), never sent; the chips stay for the message that follows.
      this.recall.sentNow(text);
      this.input.value = '';
      this.autoGrow();
      this.updateSend();
      this.deps.onDraft('');
      if (trimmed === '/model') this.deps.onPickModel();
      else this.deps.onSlash(trimmed);
      return;
    }
    if (trimmed === '') return;
    if (text.length > MAX_TEXT) {
      this.setHint(`Message too long (${text.length.toLocaleString()} characters; the limit is ${MAX_TEXT.toLocaleString()}).`);
      return;
    }
    // `//x` is the way to send a line that starts with `/`: one `/` comes off.
    const message = trimmed.startsWith('//') ? text.replace('/', '') : text;
    const outgoing = { text: message, ...this.chips.outgoing() };
    // During a turn it waits its turn, visibly; it is never dropped.
    this.sendOrQueue(outgoing);
    this.recall.sentNow(text);
    this.input.value = '';
    this.chips.clear();
    this.autoGrow();
    this.updateSend();
    this.deps.onDraft('');
  }

  private updateSend(): void {
    this.send.disabled = this.input.value.trim() === '';
  }

  /** Grows with the text; CSS caps it (max-height) and then it scrolls. */
  private autoGrow(): void {
    this.input.style.height = 'auto';
    this.input.style.height = `${this.input.scrollHeight}px`;
  }
}

/** A message as the note names it: its start, on one line. */
function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
