/** The empty chat: what this is and three prompts to try. */
import { h, icon } from './dom';

const EXAMPLES = ['List the files in this workspace', 'Which books in data.db are Science Fiction?', 'Plot y = x² with Python'];

/** Which chat this is: VS Code has its own (Copilot's, in the secondary side bar), a different agent. */
function whichChat(): string {
  const key = /Mac/.test(navigator.userAgent) ? 'Ctrl+Cmd+I' : 'Ctrl+Alt+I';
  return `This is MCP Agent's chat: Claude, on your own key or gateway. VS Code's own Chat (${key}) is a separate agent; both can be open side by side.`;
}

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
    h('p', { class: 'welcome-text welcome-which', attrs: { id: 'welcome-which' }, text: whichChat() }),
    h(
      'div',
      { class: 'examples', attrs: { role: 'group', 'aria-label': 'Example prompts' } },
      ...EXAMPLES.map((text) => h('button', { class: 'example-chip', text, attrs: { type: 'button' }, onClick: () => onPick(text) })),
    ),
  );
}
