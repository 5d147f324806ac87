/**
 * One assistant text block. Deltas only append to a string; the DOM is rebuilt from it at most once
 * per animation frame (by FrameBatcher), so 2,000 deltas/s cost ~60 renders/s, not 2,000.
 */
import { h } from './dom';
import { renderMarkdown, type MarkdownActions } from './markdown';
import { stats } from './stats';

export class TextBlock {
  readonly el: HTMLElement;
  private text = '';
  private final = false;
  private rendered = true;

  constructor(blockId: string, private readonly actions: MarkdownActions) {
    this.el = h('div', { class: 'markdown', attrs: { 'data-block-id': blockId } });
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
    this.el.replaceChildren(renderMarkdown(this.text, this.actions));
    this.rendered = true;
  }
}
