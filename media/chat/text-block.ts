/**
 * One assistant text block. Deltas only append to a string; the DOM is rebuilt from it at most once
 * per animation frame (by FrameBatcher), so a fast stream costs one render a frame, not one a delta.
 * While it streams, only the unfinished end is re-rendered: the blocks before the last paragraph
 * break (outside code fences) are rendered once and kept. Re-parsing the whole answer each frame made
 * long answers render in long frames (bench/README.md, `webview`); the final text
 * is rendered whole once, so what stays on screen is exactly the markdown of the full answer.
 */
import { h } from './dom';
import { renderMarkdown, type MarkdownActions } from './markdown';
import { stats } from './stats';

export class TextBlock {
  readonly el: HTMLElement;
  private text = '';
  private final = false;
  private rendered = true;
  /** Characters of `text` rendered for good while streaming (their nodes stay in `el`). */
  private settled = 0;
  /** The nodes of the unfinished end, replaced on each render. */
  private tail: ChildNode[] = [];

  constructor(
    blockId: string,
    private readonly actions: MarkdownActions,
  ) {
    this.el = h('div', { class: 'markdown', attrs: { 'data-block-id': blockId } });
  }

  /** The text as the model wrote it (Markdown), for Copy. */
  get source(): string {
    return this.text;
  }

  get isFinal(): boolean {
    return this.final;
  }

  get isDirty(): boolean {
    return !this.rendered;
  }

  /** Returns false when the block is already final (a late delta must not undo the final text). */
  append(delta: string): boolean {
    if (this.final) return false;
    this.text += delta;
    this.rendered = false;
    this.el.classList.add('streaming');
    this.el.setAttribute('aria-busy', 'true');
    return true;
  }

  /** The persisted text wins over whatever was streamed. */
  setFinal(text: string): void {
    this.text = text;
    this.final = true;
    this.endStream();
  }

  /** The turn ended (or the final text came): keep what arrived and stop looking busy. */
  endStream(): void {
    this.el.classList.remove('streaming');
    this.el.removeAttribute('aria-busy');
    this.render();
  }

  render(): void {
    stats.markdownRenders++;
    this.rendered = true;
    if (this.final || !this.el.classList.contains('streaming')) {
      this.settled = 0;
      this.tail = [];
      this.el.replaceChildren(renderMarkdown(this.text, this.actions));
      return;
    }
    for (const node of this.tail) node.remove();
    const cut = settledEnd(this.text, this.settled);
    if (cut > this.settled) {
      this.el.append(renderMarkdown(this.text.slice(this.settled, cut), this.actions));
      this.settled = cut;
    }
    const tail = renderMarkdown(this.text.slice(this.settled), this.actions);
    this.tail = Array.from(tail.childNodes);
    this.el.append(tail);
  }
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** A line that may continue the block above it across a blank line: indented, a list item, a table row. */
const CONTINUES = /^(\s|[-*+] |\d{1,9}[.)] |\|)/;

/**
 * Where the finished blocks of `text` end, searching from `from`: just after the last blank line that is
 * outside a code fence and followed by a line that starts a new block. `from` when there is none.
 */
function settledEnd(text: string, from: number): number {
  let end = from;
  let fence: string | undefined;
  let pos = from;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    if (nl === -1) break;
    const line = text.slice(pos, nl);
    const marker = FENCE.exec(line)?.[1];
    if (marker && (!fence || (marker[0] === fence[0] && marker.length >= fence.length))) fence = fence ? undefined : marker;
    const next = nl + 1;
    if (!fence && line.trim() === '' && next < text.length) {
      const after = text.slice(next, text.indexOf('\n', next) === -1 ? text.length : text.indexOf('\n', next));
      // Only a line that has ended counts: a half-streamed "1" may yet become "1. item".
      if (text.indexOf('\n', next) !== -1 && after.trim() !== '' && !CONTINUES.test(after)) end = next;
    }
    pos = next;
  }
  return end;
}
