/**
 * The `@` list above the input: files, folders, the selection and the Problems list the host
 * offers for what was typed after `@`. Arrow keys move, Enter or Tab picks, Escape closes; the
 * textarea keeps the focus (the list is its aria-activedescendant), so typing goes on as usual.
 */
import type { Mention } from '../../src/common/requests';
import { h, icon, type IconName } from './dom';

const ICON: Record<Mention['kind'], IconName> = { file: 'file', folder: 'folder', selection: 'selection', problems: 'warning' };

export class MentionPopup {
  readonly el: HTMLElement;
  private items: Mention[] = [];
  private active = 0;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly onPick: (item: Mention) => void,
  ) {
    this.el = h('div', { class: 'mention-popup', attrs: { id: 'mention-list', role: 'listbox', 'aria-label': 'Attach with @' } });
    this.el.hidden = true;
  }

  get isOpen(): boolean {
    return !this.el.hidden;
  }

  showLoading(): void {
    this.open([]);
    this.el.replaceChildren(h('div', { class: 'mention-empty', text: 'Searching…' }));
  }

  show(items: Mention[]): void {
    this.open(items);
    if (items.length === 0) {
      this.el.replaceChildren(h('div', { class: 'mention-empty', text: 'Nothing in the workspace matches.' }));
      return;
    }
    this.el.replaceChildren(
      ...items.map((item, i) => {
        const row = h(
          'div',
          {
            class: `mention-item${item.refused ? ' refused' : ''}`,
            attrs: {
              id: `mention-${i}`,
              role: 'option',
              'aria-selected': String(i === this.active),
              'aria-disabled': String(!!item.refused),
              'data-kind': item.kind,
            },
          },
          icon(ICON[item.kind]),
          h('span', { class: 'mention-label', text: item.label }),
          h('span', { class: 'mention-detail', text: item.refused ?? item.detail ?? '' }),
        );
        // mousedown, not click: the textarea must not lose the focus first.
        row.addEventListener('mousedown', (e) => {
          e.preventDefault();
          this.pick(i);
        });
        return row;
      }),
    );
    this.input.setAttribute('aria-activedescendant', `mention-${this.active}`);
  }

  close(): void {
    this.el.hidden = true;
    this.items = [];
    this.input.removeAttribute('aria-activedescendant');
    this.input.setAttribute('aria-expanded', 'false');
  }

  /** Keys while the list is open; true when the key was the list's. */
  key(e: KeyboardEvent): boolean {
    if (!this.isOpen) return false;
    if (e.key === 'Escape') {
      this.close();
      return true;
    }
    if (this.items.length === 0) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      this.move(e.key === 'ArrowDown' ? 1 : -1);
      return true;
    }
    if (e.key === 'Enter' || e.key === 'Tab') {
      this.pick(this.active);
      return true;
    }
    return false;
  }

  private open(items: Mention[]): void {
    this.items = items;
    this.active = 0;
    this.el.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
    this.input.setAttribute('aria-controls', 'mention-list');
  }

  private move(step: number): void {
    this.active = (this.active + step + this.items.length) % this.items.length;
    for (const [i, row] of Array.from(this.el.children).entries()) row.setAttribute('aria-selected', String(i === this.active));
    this.el.children[this.active]?.scrollIntoView({ block: 'nearest' });
    this.input.setAttribute('aria-activedescendant', `mention-${this.active}`);
  }

  private pick(i: number): void {
    const item = this.items[i];
    if (!item) return;
    this.close();
    this.onPick(item);
  }
}
