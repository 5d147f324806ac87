/**
 * The warning box of a server's ask: shown before everything else on the card, in the warning colours
 * approval warnings use, for what a person must read before answering (a form that asks for a secret,
 * an address whose site is not what it seems).
 */
import { h, icon } from './dom';

export function askWarning(lines: string[]): HTMLElement {
  return h(
    'ul',
    { class: 'ask-warnings', attrs: { 'aria-label': 'Warnings' } },
    ...lines.map((w) => h('li', { class: 'ask-warning' }, icon('warning'), h('span', { text: w }))),
  );
}
