/**
 * The `/` list above the input: commands, then a command's server, prompt or resource, as the host
 * completes the text typed so far. It behaves as the `@` list does (mention-popup.ts): arrow keys
 * move, Enter or Tab picks, Escape closes, and the textarea keeps the focus (the list is its
 * aria-activedescendant). Enter on an item that is complete as it is runs it; Tab only fills it in.
 */
import type { SlashItem } from '../../src/common/requests';
import { h } from './dom';

export class SlashPopup {
  readonly el: HTMLElement;
  private items: SlashItem[] = [];
  private active = 0;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly onPick: (item: SlashItem, run: boolean) => void,
  ) {
    // The `@` list's look: the same classes.
    this.el = h('div', { class: 'mention-popup slash-popup', attrs: { id: 'slash-list', role: 'listbox', 'aria-label': 'Commands' } });
    this.el.hidden = true;
  }

  get isOpen(): boolean {
    return !this.el.hidden;
  }

  /** The list for the command typed so far, `forText` (kept on the list: what it answers, for Enter and for tests). */
  show(items: SlashItem[], forText: string): void {
    if (items.length === 0) {
      this.close();
      return;
    }
    this.el.dataset.for = forText;
    this.items = items;
    this.active = 0;
    this.el.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
    this.input.setAttribute('aria-controls', 'slash-list');
    this.el.replaceChildren(
      ...items.map((item, i) => {
        const row = h(
          'div',
          { class: 'mention-item slash-item', attrs: { id: `slash-${i}`, role: 'option', 'aria-selected': String(i === this.active) } },
          h('span', { class: 'mention-label', text: item.label }),
          h('span', { class: 'mention-detail', text: item.detail ?? '' }),
        );
        // mousedown, not click: the textarea must not lose the focus first.
        row.addEventListener('mousedown', (e) => {
          e.preventDefault();
          this.pick(i, true);
        });
        return row;
      }),
    );
    this.input.setAttribute('aria-activedescendant', `slash-${this.active}`);
  }

  close(): void {
    if (this.el.hidden) return;
    this.el.hidden = true;
    this.items = [];
    this.input.removeAttribute('aria-activedescendant');
    this.input.setAttribute('aria-expanded', 'false');
  }

  /** Keys while the list is open; true when the key was the list's. */
  key(e: KeyboardEvent): boolean {
    if (!this.isOpen || this.items.length === 0) return false;
    if (e.key === 'Escape') {
      this.close();
      return true;
    }
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      this.move(e.key === 'ArrowDown' ? 1 : -1);
      return true;
    }
    if (e.key === 'Enter' || e.key === 'Tab') {
      this.pick(this.active, e.key === 'Enter');
      return true;
    }
    return false;
  }

  private move(step: number): void {
    this.active = (this.active + step + this.items.length) % this.items.length;
    for (const [i, row] of Array.from(this.el.children).entries()) row.setAttribute('aria-selected', String(i === this.active));
    this.el.children[this.active]?.scrollIntoView({ block: 'nearest' });
    this.input.setAttribute('aria-activedescendant', `slash-${this.active}`);
  }

  private pick(i: number, enter: boolean): void {
    const item = this.items[i];
    if (!item) return;
    this.close();
    this.onPick(item, enter && item.runs);
  }
}
