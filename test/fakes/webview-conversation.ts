/** A mid-conversation chat used by the webview tests and screenshots. */
import type { ChatEvent, ChatState, HostMessage } from '../../src/common/protocol';

export const readyState: ChatState = {
  hasKey: true,
  trusted: true,
  busy: false,
  model: 'claude-sonnet-5-5',
  workspaceName: 'sample-workspace',
  serverProblems: [],
};

// A 1x1 PNG.
export const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

export const finishedTurn: ChatEvent[] = [
  { kind: 'user', id: 'u1', text: 'Which books in data.db are Science Fiction?', attachments: ['data.db'], at: 1 },
  {
    kind: 'tool_call',
    turnId: 't1',
    callId: 'c1',
    server: 'workspace',
    tool: 'query_database',
    input: { path: 'data.db', sql: 'SELECT title, author FROM books WHERE genre = ?', params: ['Science Fiction'] },
  },
  {
    kind: 'tool_result',
    callId: 'c1',
    isError: false,
    content: [{ type: 'text', text: '[{"title":"Dune","author":"Frank Herbert"},{"title":"Neuromancer","author":"William Gibson"}]' }],
    durationMs: 1234,
  },
  {
    kind: 'assistant_text',
    turnId: 't1',
    blockId: 'b1',
    text: 'Two books are **Science Fiction**:\n\n| Title | Author |\n| --- | --- |\n| Dune | Frank Herbert |\n| Neuromancer | William Gibson |',
  },
  { kind: 'turn_end', turnId: 't1', status: 'done' },
];

export const secondQuestion: ChatEvent = {
  kind: 'user',
  id: 'u2',
  text: 'Write a summary to notes/scifi.md and show me how to read it from TypeScript.',
  attachments: [],
  at: 2,
};

export const streamedAnswer = [
  "I'll write the summary. Reading it back is one call:\n\n",
  '```ts\nimport { readFile } from "node:fs/promises";\n\n',
  'export async function readNotes(path: string): Promise<string> {\n',
  '  const text = await readFile(path, "utf8"); // 2 books\n  return text.trim();\n}\n```\n\n',
  'Then the file write needs your approval:',
];

export const pendingApproval: ChatEvent[] = [
  {
    kind: 'tool_call',
    turnId: 't2',
    callId: 'c2',
    server: 'workspace',
    tool: 'write_file',
    input: { path: 'notes/scifi.md', content: '# Science Fiction\n\n- Dune\n- Neuromancer\n' },
  },
  {
    kind: 'approval_request',
    callId: 'c2',
    server: 'workspace',
    tool: 'write_file',
    reason: 'Writes notes/scifi.md (new file, 41 bytes).',
    preview: '# Science Fiction\n\n- Dune — Frank Herbert\n- Neuromancer — William Gibson\n',
  },
];

/** Everything the screenshots show, as the host would post it. */
export function midConversation(): HostMessage[] {
  return [
    { type: 'state', state: { ...readyState, busy: true } },
    { type: 'replay', events: [...finishedTurn, secondQuestion] },
    ...streamedAnswer.map((text): HostMessage => ({ type: 'delta', turnId: 't2', blockId: 'b2', text })),
    ...pendingApproval.map((event): HostMessage => ({ type: 'event', event })),
  ];
}
