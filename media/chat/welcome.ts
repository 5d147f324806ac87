/** The empty chat: what this is and three prompts to try. */
import { h, icon } from './dom';

const EXAMPLES = ['List the files in this workspace', 'Which books in data.db are Science Fiction?', 'Plot y = x² with Python'];

export function createWelcome(onPick: (prompt: string) => void): HTMLElement {
  return h(
    'div',
    { class: 'welcome', attrs: { id: 'welcome' } },
    h('div', { class: 'welcome-icon' }, icon('sparkle')),
    h('h2', { class: 'welcome-title', text: 'MCP Agent' }),
    h('p', {
      class: 'welcome-text',
      text: 'Ask Claude to work in this workspace. It reads and writes files, queries data, runs code and searches the web through MCP tools, and asks before anything risky.',
    }),
    h(
      'div',
      { class: 'examples', attrs: { role: 'group', 'aria-label': 'Example prompts' } },
      ...EXAMPLES.map((text) => h('button', { class: 'example-chip', text, attrs: { type: 'button' }, onClick: () => onPick(text) })),
    ),
  );
}
