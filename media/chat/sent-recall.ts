/**
 * Up / Down through what was sent in this chat, as a terminal's history: Up in an empty input (or on a recalled
 * message, with the caret on its first line) shows the message before; Down goes forward and, past the newest,
 * back to empty. Anything else is the textarea's own caret movement.
 */
export class SentRecall {
  /** Oldest first; `at` is the entry shown, if one is. */
  private sent: string[] = [];
  private at: number | undefined;

  /** The messages already sent in this chat (from a replay). */
  remember(texts: string[]): void {
    this.sent = texts.slice(-100);
    this.at = undefined;
  }

  sentNow(text: string): void {
    this.sent.push(text);
    this.at = undefined;
  }

  /** Typing makes the input a new message. */
  edited(): void {
    this.at = undefined;
  }

  /** The text the input shows after this step; undefined: the key is the caret's, not ours. */
  step(input: HTMLTextAreaElement, step: -1 | 1): string | undefined {
    const { value, selectionStart, selectionEnd } = input;
    if (this.sent.length === 0 || selectionStart !== selectionEnd) return undefined;
    if (this.at === undefined) {
      if (step === 1 || value !== '') return undefined;
    } else if (step === -1 ? value.lastIndexOf('\n', selectionStart - 1) !== -1 : value.indexOf('\n', selectionStart) !== -1) {
      return undefined;
    }
    const next = (this.at ?? this.sent.length) + step;
    if (next < 0) return value;
    this.at = next >= this.sent.length ? undefined : next;
    return this.at === undefined ? '' : this.sent[this.at];
  }
}
