// The agent-mcp-v1 seed's demo as a person runs it in a real VS Code: an empty folder, "Create Sample
// Database" from the command palette, then "Add Dune to the database and show all sci-fi books" in the chat.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { chatRig } from './chat-rig';
import { shownText } from '../support/shown-text';

/** An INSERT, then a parameterised SELECT, then the rows the real server returned as a markdown table. */
function demoModel(body: MessagesBody): Reply {
  if (!isToolResultTurn(body)) {
    return {
      text: "I'll add Dune, then list the Science Fiction books.",
      toolUses: [
        {
          name: 'workspace__query_database',
          input: { sql: "INSERT INTO books (title, author, year, genre) VALUES ('Dune', 'Frank Herbert', 1965, 'Science Fiction')" },
        },
      ],
    };
  }
  const result = lastUserText(body);
  if (result.includes('lastInsertRowid')) {
    return {
      toolUses: [
        {
          name: 'workspace__query_database',
          input: { sql: 'SELECT title, author, year FROM books WHERE genre = ? ORDER BY year', params: ['Science Fiction'] },
        },
      ],
    };
  }
  const [json = ''] = result.split('\n[');
  const rows = (JSON.parse(json) as { rows: Array<{ title: string; author: string; year: number }> }).rows;
  const table = rows.map((r) => `| ${r.title} | ${r.author} | ${r.year} |`).join('\n');
  return { text: `Added **Dune**. The Science Fiction books now:\n\n| Title | Author | Year |\n| --- | --- | --- |\n${table}\n`, chunk: 12 };
}

describe('the seed demo in a real VS Code', () => {
  const rig = chatRig('demo', demoModel, {});

  test('"Create Sample Database" from the palette makes data.db and says what is in it', async (t) => {
    await rig.vs.openChat();
    await rig.vs.waitForTreeItem('Tools', /workspace\s*ready/);
    assert.equal(existsSync(join(rig.vs.workspace, 'data.db')), false);
    await rig.vs.runCommand('MCP Agent: Create Sample Database');
    const toast = rig.vs.page.locator('.notifications-toasts .notification-toast', { hasText: 'created data.db' });
    await toast.waitFor();
    assert.match(await shownText(toast), /8 books in 5 genres and 5 users/);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('sample-db-created')}`);
    assert.equal(readFileSync(join(rig.vs.workspace, 'data.db')).subarray(0, 15).toString('latin1'), 'SQLite format 3');
  });

  test('"Add Dune to the database and show all sci-fi books": the write asks, the read does not, one Dune, a table of three', async (t) => {
    const chat = await rig.vs.openChat();
    await chat.locator('#input').fill('Add Dune to the database and show all sci-fi books');
    await chat.locator('#input').press('Enter');
    // The INSERT asks; the SELECT only reads, so it runs without a question.
    const approval = chat.locator('.approval[data-state="pending"]');
    await approval.waitFor();
    assert.match(await shownText(approval), /Change data\.db with SQL[^]*INSERT INTO books/);
    await approval.locator('button[data-decision="once"]').click();
    const table = chat.locator('.msg.assistant .markdown table');
    await table.waitFor();
    assert.equal(await chat.locator('.approval').count(), 1, 'only the write asked');
    const titles = await table.locator('tbody tr td:first-child').allInnerTexts();
    assert.deepEqual(titles, ['Dune', 'The Left Hand of Darkness', 'Neuromancer']);
    // Words stay whole in a narrow side bar ("Ye/ar", "196/5" before): a one-word cell is one line.
    const lines = await table.locator('th, td').evaluateAll((cells) =>
      cells
        .filter((c) => !/\s/.test((c.textContent ?? '').trim()))
        .map((c) => {
          const range = document.createRange();
          range.selectNodeContents(c);
          return { text: c.textContent, lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size };
        }),
    );
    for (const cell of lines) assert.equal(cell.lines, 1, `"${cell.text}" is split over ${cell.lines} lines`);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('sample-db-demo')}`);
  });
});
