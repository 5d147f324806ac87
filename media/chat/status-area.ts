/** What the host's state says above the chat: no key, Restricted Mode, servers not ready, servers that sample without asking. */
import type { ChatState } from '../../src/common/protocol';
import { h, icon } from './dom';

export function renderStatus(el: HTMLElement, state: ChatState, onSetKey: () => void): void {
  const parts: HTMLElement[] = [];
  if (!state.hasKey) {
    const button = h('button', { class: 'btn btn-primary cta-set-key', attrs: { type: 'button' } }, icon('key'), h('span', { text: 'Set API Key' }));
    button.addEventListener('click', onSetKey);
    parts.push(
      h(
        'div',
        { class: 'cta-card', attrs: { role: 'region', 'aria-label': 'API key needed' } },
        h('div', { class: 'cta-title', text: 'Set your Anthropic API key to start' }),
        h(
          'p',
          { class: 'cta-text' },
          'The key is kept in VS Code’s secret storage. The ',
          h('code', { text: 'ANTHROPIC_API_KEY' }),
          ' environment variable also works.',
        ),
        button,
      ),
    );
  }
  if (!state.trusted) {
    parts.push(
      h(
        'div',
        { class: 'banner banner-restricted', attrs: { role: 'note' } },
        icon('shield'),
        h('span', { text: 'Restricted Mode: this workspace is not trusted, so no server that can write files or run code is started.' }),
      ),
    );
  }
  if (state.serverProblems.length > 0) {
    parts.push(h('div', { class: 'server-problems', attrs: { role: 'status' } }, icon('warning'), h('span', { text: state.serverProblems.join(' · ') })));
  }
  for (const b of state.samplingBudgets ?? []) parts.push(budgetLine(b));
  el.replaceChildren(...parts);
  el.hidden = parts.length === 0;
}

/** A server allowed "Always" to sample: how much of its budget it used, so it is never an open tab. */
function budgetLine(b: NonNullable<ChatState['samplingBudgets']>[number]): HTMLElement {
  const n = (x: number): string => x.toLocaleString('en-US');
  const text =
    b.used >= b.limit
      ? `${b.server}'s sampling budget is spent (${n(b.used)} of ${n(b.limit)} tokens): its next request asks you again.`
      : `${b.server} may ask the model without asking you: ${n(b.used)} of ${n(b.limit)} tokens used (until the window closes).`;
  return h('div', { class: 'sampling-budget', attrs: { role: 'status', 'data-server': b.server } }, icon('sparkle'), h('span', { text }));
}
