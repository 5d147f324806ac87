/**
 * Every state of the chat a person can see, as the host would post it, in the order the theme tests render
 * them on one page: each stage adds to what is there (or replaces it), then is measured and shot.
 */
import type { ChatEvent, HostMessage } from '../../src/common/protocol';
import { PNG_1PX, readyState } from './webview-conversation';

const ANSWER = [
  'Here is `inline code`, a file `src/app.py:12` and a [link](https://example.com).',
  '',
  '```python',
  '# a comment',
  'def total(books: list[dict]) -> int:',
  '    return sum(b["year"] for b in books if b["genre"] == "Fantasy")  # 42',
  '```',
  '',
  '| Title | Author | Year | Genre | Publisher | Pages |',
  '| --- | --- | --- | --- | --- | --- |',
  '| Foundation | Isaac Asimov | 1951 | Science Fiction | Gnome Press | 255 |',
  '| Neuromancer | William Gibson | 1984 | Cyberpunk | Ace | 271 |',
  '',
  '> A quote, **bold** and *italic*.',
  '',
  '1. a list',
  '2. of two',
].join('\n');

const SQL_ROWS =
  '{"columns":["title","author","year","genre"],"row_count":2,"rows":[\n{"title":"Dune","author":"Frank Herbert","year":1965,"genre":null},\n{"title":"Neuromancer","author":"William Gibson","year":1984,"genre":"Cyberpunk"}\n]}';

const DIFF_PREVIEW =
  '--- notes/scifi.md\n+++ notes/scifi.md (proposed)\n@@ -1,3 +1,4 @@\n # Science Fiction\n-- Dune\n+- Dune — Frank Herbert\n+- Neuromancer — William Gibson\n';

/** A finished turn with everything an answer can hold, its tool cards and its usage line. */
export const richTurn: ChatEvent[] = [
  {
    kind: 'user',
    id: 'u1',
    text: 'Which books in data.db are Science Fiction? Plot them too.',
    attachments: ['data.db', 'notes/reading-list.md'],
    at: 1,
    span: { from: 0, to: 1 },
  },
  { kind: 'thinking', turnId: 't1', blockId: 'th', text: 'The person wants a query, a plot and a summary table.' },
  {
    kind: 'tool_call',
    turnId: 't1',
    callId: 'sql',
    server: 'workspace',
    tool: 'query_database',
    input: { path: 'data.db', sql: 'SELECT title, author, year, genre FROM books' },
  },
  { kind: 'tool_result', callId: 'sql', isError: false, content: [{ type: 'text', text: SQL_ROWS }], durationMs: 12 },
  { kind: 'tool_call', turnId: 't1', callId: 'plot', server: 'workspace', tool: 'run_code', input: { language: 'python', code: 'plot(books)' } },
  {
    kind: 'tool_result',
    callId: 'plot',
    isError: false,
    content: [
      { type: 'text', text: 'saved plot.png' },
      { type: 'image', mimeType: 'image/png', data: PNG_1PX },
    ],
    durationMs: 2300,
  },
  { kind: 'tool_call', turnId: 't1', callId: 'err', server: 'web', tool: 'fetch_url', input: { url: 'https://example.com/missing' } },
  { kind: 'tool_result', callId: 'err', isError: true, content: [{ type: 'text', text: 'HTTP 404 Not Found: https://example.com/missing' }], durationMs: 340 },
  { kind: 'tool_call', turnId: 't1', callId: 'den', server: 'workspace', tool: 'write_file', input: { path: '.vscode/settings.json', content: '{}' } },
  { kind: 'approval_request', callId: 'den', server: 'workspace', tool: 'write_file', reason: 'Writes .vscode/settings.json', preview: '{}' },
  { kind: 'approval', callId: 'den', decision: 'deny' },
  { kind: 'tool_result', callId: 'den', isError: true, content: [{ type: 'text', text: 'The person denied this tool call.' }], durationMs: 0 },
  { kind: 'assistant_text', turnId: 't1', blockId: 'a1', text: ANSWER },
  {
    kind: 'turn_end',
    turnId: 't1',
    status: 'done',
    usage: { model: 'claude-sonnet-5-5', input: 3400, output: 60, cacheRead: 3300, cacheWrite: 50, costUsd: 0.01 },
  },
  {
    kind: 'checkpoint',
    turnId: 't1',
    before: 'a'.repeat(40),
    after: 'b'.repeat(40),
    files: ['notes/scifi.md', 'plot.png'],
    notCovered: [{ path: 'data/books-export.parquet', bytes: 300 * 1024 * 1024, reason: 'size' }],
  },
  {
    kind: 'compaction',
    turnId: 't2',
    replaced: 12,
    summary: 'The person asked about **Science Fiction** books; two were found.',
    tokensBefore: 180_000,
    tokensAfter: 9_000,
  },
  { kind: 'notice', level: 'warning', text: 'The research server restarted after a crash.' },
  { kind: 'notice', level: 'info', text: 'Tools from the web server are available again.' },
];

/** A file change waiting for approval, shown with its diff and "Review changes". */
export const diffApproval: ChatEvent[] = [
  { kind: 'user', id: 'u2', text: 'Add the authors to notes/scifi.md', attachments: [], at: 2 },
  { kind: 'tool_call', turnId: 't2', callId: 'edit', server: 'workspace', tool: 'edit_file', input: { path: 'notes/scifi.md' } },
  {
    kind: 'approval_request',
    callId: 'edit',
    server: 'workspace',
    tool: 'edit_file',
    reason: 'Edits notes/scifi.md in the workspace (overwrites 3 lines).',
    preview: DIFF_PREVIEW,
    review: true,
    alwaysKind: 'tool',
  },
];

export interface Stage {
  name: string;
  messages: HostMessage[];
  /** What shows the stage has rendered. */
  ready: string;
}

/** Stages shown on one page per theme and width, each measured before the next. */
export const STAGES: Stage[] = [
  {
    name: 'welcome',
    messages: [{ type: 'state', state: { ...readyState, hasKey: false, trusted: false, serverProblems: ['web: exited with code 1 (restarting)'] } }],
    ready: '.cta-set-key',
  },
  {
    name: 'conversation',
    messages: [
      {
        type: 'state',
        state: {
          ...readyState,
          busy: true,
          chat: { title: 'Science Fiction', usage: { input: 3400, output: 60, cacheRead: 3300, cacheWrite: 50, costUsd: 0.01 }, unpricedTurns: 0 },
        },
      },
      { type: 'replay', events: [...richTurn, ...diffApproval] },
      { type: 'progress', callId: 'edit', progress: 1, total: 3, message: 'waiting' },
    ],
    ready: '.approval[data-call-id="edit"] button.review',
  },
  {
    name: 'notices',
    messages: [
      { type: 'event', event: { kind: 'approval', callId: 'edit', decision: 'once' } },
      {
        type: 'event',
        event: { kind: 'tool_result', callId: 'edit', isError: false, content: [{ type: 'text', text: 'Edited notes/scifi.md' }], durationMs: 20 },
      },
      { type: 'event', event: { kind: 'notice', level: 'error', text: 'No Anthropic API key is set.', action: 'setKey' } },
      { type: 'event', event: { kind: 'turn_end', turnId: 't3', status: 'max_iterations', error: 'Stopped after 10 model calls.', action: 'continue' } },
    ],
    ready: '.turn-end button[data-action="continue"]',
  },
  {
    name: 'retry',
    messages: [
      { type: 'event', event: { kind: 'user', id: 'u4', text: 'continue', attachments: [], at: 4 } },
      {
        type: 'event',
        event: { kind: 'turn_end', turnId: 't4', status: 'error', error: 'The Anthropic API is overloaded (529).', action: 'retry', retryAfterS: 600 },
      },
    ],
    ready: '.turn-end button[data-action="retry"]',
  },
  {
    name: 'working',
    messages: [
      { type: 'state', state: { ...readyState, busy: true } },
      { type: 'activity', turnId: 't5', activity: { kind: 'retry', reason: 'overloaded', status: 529, waitMs: 600_000, attempt: 2, attempts: 3 } },
    ],
    ready: '.working[data-kind="retry"]',
  },
];
