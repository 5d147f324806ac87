// MCP Agent: Create Sample Database, run as a person runs it from the command palette.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { McpAgentApi } from '../../../src/extension';

describe('Create Sample Database', () => {
  const folder = (): string => {
    const f = vscode.workspace.workspaceFolders?.[0];
    assert.ok(f, 'the suite opens a workspace folder');
    return f.uri.fsPath;
  };

  it('creates data.db with the demo tables when the workspace has none, and never replaces one', async () => {
    const api = await vscode.extensions.getExtension<McpAgentApi>('mcp-agent.mcp-agent')!.activate();
    const db = join(folder(), 'data.db');
    const saved = `${db}.before-test`;
    const errorsBefore = api.commandErrors().length; // earlier tests leave theirs
    if (existsSync(db)) renameSync(db, saved);
    try {
      await vscode.commands.executeCommand('mcpAgent.createSampleDatabase');
      assert.deepEqual(api.commandErrors().slice(errorsBefore), []);
      const bytes = readFileSync(db);
      assert.equal(bytes.subarray(0, 16).toString('latin1'), 'SQLite format 3\0');
      assert.ok(bytes.includes(Buffer.from('The Left Hand of Darkness')), 'the seed books are in it');

      writeFileSync(db, "the person's own data");
      const before = statSync(db).mtimeMs;
      await vscode.commands.executeCommand('mcpAgent.createSampleDatabase');
      assert.equal(readFileSync(db, 'utf8'), "the person's own data");
      assert.equal(statSync(db).mtimeMs, before);
      assert.deepEqual(api.commandErrors().slice(errorsBefore), []);
    } finally {
      if (existsSync(saved)) renameSync(saved, db);
    }
  });
});
