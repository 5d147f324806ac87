import { test } from 'node:test';
import assert from 'node:assert/strict';
import { approvalNeed, changeApproval } from '../../src/core/tool-call/approval-policy';
import { READ_ONLY_CALLS } from '../../src/node/sql-read-only';
import type { HubTool } from '../../src/core/mcp/types';

const never = { has: () => false, add: () => undefined };
const always = { has: () => true, add: () => undefined };

function queryTool(meta?: Record<string, unknown>): HubTool {
  return {
    server: 'workspace',
    qualifiedName: 'workspace__query_database',
    tool: {
      name: 'query_database',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: false, destructiveHint: true },
      ...(meta ? { _meta: meta } : {}),
    },
  };
}

test('a tool that declares read-only calls first runs its SQL without asking, marked so the server holds it to reading', () => {
  const tool = queryTool({ [READ_ONLY_CALLS]: 'sql' });
  // No keyword matching here: SQLite decides in the server whether the statement writes.
  for (const sql of ['SELECT * FROM books', 'DROP TABLE books', 'WITH t AS (SELECT 1) DELETE FROM books']) {
    assert.deepEqual(approvalNeed(tool, { sql }, never), { ask: false, readOnlyCall: true }, sql);
  }
});

test('a statement SQLite found to write asks, and its prompt says it changes the database', () => {
  const tool = queryTool({ [READ_ONLY_CALLS]: 'sql' });
  const need = changeApproval(tool, { sql: 'DROP TABLE books' }, never);
  assert.equal(need.ask, true);
  assert.equal(need.ask && need.reason, 'Change data.db with SQL');
  assert.equal(need.ask && need.alwaysKind, 'tool');
  // "Always" given for a write is for writes; reads never needed it.
  assert.deepEqual(changeApproval(tool, { sql: 'DROP TABLE books' }, always), { ask: false });
});

test('without the declaration, or with SQL in another argument, every call asks as before', () => {
  assert.equal(approvalNeed(queryTool(), { sql: 'SELECT 1' }, never).ask, true);
  assert.equal(approvalNeed(queryTool({ [READ_ONLY_CALLS]: 'query' }), { sql: 'SELECT 1' }, never).ask, true);
  assert.equal(approvalNeed(queryTool({ [READ_ONLY_CALLS]: 'sql' }), { sql: 42 }, never).ask, true);
});

test('a card says "in the workspace" only for a path that stays inside it', () => {
  const write: HubTool = { server: 'workspace', qualifiedName: 'workspace__write_file', tool: { name: 'write_file', inputSchema: { type: 'object' } } };
  const reason = (path: string): string => {
    const need = approvalNeed(write, { path, content: 'x' }, never);
    return need.ask ? need.reason : '';
  };
  assert.equal(reason('notes/a.md'), 'Write notes/a.md in the workspace');
  assert.equal(reason('a/../b.md'), 'Write a/../b.md in the workspace');
  assert.equal(reason('../outside.md'), 'Write ../outside.md (outside the workspace)');
  assert.equal(reason('a/../../outside.md'), 'Write a/../../outside.md (outside the workspace)');
  assert.equal(reason('/etc/passwd'), 'Write /etc/passwd (outside the workspace)');
  assert.equal(reason('C:\\Windows\\x'), 'Write C:\\Windows\\x (outside the workspace)');
});

function runCode(sandbox?: unknown): HubTool {
  return {
    server: 'workspace',
    qualifiedName: 'workspace__run_code',
    tool: {
      name: 'run_code',
      inputSchema: { type: 'object' },
      annotations: { destructiveHint: true },
      ...(sandbox === undefined ? {} : { _meta: { 'mcpAgent/sandbox': sandbox } }),
    },
  };
}

test("running code: the prompt's gist fits a glance, and is a warning exactly when the code may run with the person's access", () => {
  const gist = (sandbox?: unknown) => {
    const need = changeApproval(runCode(sandbox), { code: 'print(1)' }, never);
    assert.ok(need.ask);
    return need.summary;
  };
  assert.deepEqual(gist({ available: true, kind: 'bubblewrap', network: false, detail: 'A long paragraph about the sandbox.' }), {
    text: 'Sandboxed, network off.',
    warning: false,
  });
  assert.deepEqual(gist({ available: true, kind: 'bubblewrap', network: true }), { text: 'Sandboxed, network on.', warning: false });
  assert.deepEqual(gist({ available: false, kind: 'none', network: true, detail: 'No OS sandbox: bwrap is missing.' }), {
    text: 'No OS sandbox: full access.',
    warning: true,
  });
  assert.deepEqual(gist(), { text: 'Sandbox unknown: assume full access.', warning: true });
  // An ordinary tool has no gist: its card shows its lines as they are.
  const write = changeApproval(queryTool(), { sql: 'DELETE FROM t' }, never);
  assert.ok(write.ask);
  assert.equal(write.summary, undefined);
});
