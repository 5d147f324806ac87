/**
 * Messages sent while a turn runs: kept in order above the input, each with a button that takes it
 * back, and sent one by one as each turn ends (the host runs one turn at a time). Enter during a
 * turn never loses what was typed; a message the host refused comes back first in line.
 */
import type { Outgoing } from '../../src/common/requests';
import { h, icon } from './dom';

export type QueuedMessage = Outgoing;

export class SendQueue {
  readonly el: HTMLElement;
  private readonly list: HTMLElement;
  private readonly items: Array<{ message: QueuedMessage; row: HTMLElement }> = [];

  constructor(private readonly announce: (text: string) => void) {
    this.list = h('ol', { class: 'queued-list' });
    this.el = h(
      'div',
      { class: 'queued', attrs: { 'aria-label': 'Queued messages' } },
      h('div', { class: 'queued-title', text: 'Sends when the current turn ends' }),
      this.list,
    );
    this.el.hidden = true;
  }

  get size(): number {
    return this.items.length;
  }

  add(message: QueuedMessage): void {
    const item = this.item(message);
    this.items.push(item);
    this.list.append(item.row);
    this.el.hidden = false;
    this.announce('Queued: it is sent when the current turn ends.');
  }

  /** A message the host refused, first in line again. */
  putBack(message: QueuedMessage): void {
    const item = this.item(message);
    this.items.unshift(item);
    this.list.prepend(item.row);
    this.el.hidden = false;
  }

  /** The oldest queued message, taken off the queue. */
  next(): QueuedMessage | undefined {
    const item = this.items.shift();
    item?.row.remove();
    this.el.hidden = this.items.length === 0;
    return item?.message;
  }

  /** The message with its row and the row's Take back button. */
  private item(message: QueuedMessage): { message: QueuedMessage; row: HTMLElement } {
    const take = h(
      'button',
      { class: 'chip-remove queued-remove', attrs: { type: 'button', 'aria-label': 'Take this message back', title: 'Take back' } },
      icon('close'),
    );
    const extras = message.attachments.length + message.images.length;
    const row = h(
      'li',
      { class: 'queued-item' },
      h('span', { class: 'queued-text', text: message.text }),
      extras > 0 ? h('span', { class: 'queued-extras', text: `+${extras} attached` }) : null,
      take,
    );
    const item = { message, row };
    take.addEventListener('click', () => {
      this.items.splice(this.items.indexOf(item), 1);
      row.remove();
      this.el.hidden = this.items.length === 0;
    });
    return item;
  }
}
