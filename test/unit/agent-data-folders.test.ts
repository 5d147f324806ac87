// What run_code's sandbox hides of MCP Agent's own data (src/node/agent-home.ts), and which editor folders the
// extension names for it (src/vscode/editor-storage.ts), reaching the workspace server and the orchestrator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { delimiter, join } from 'node:path';
import type * as vscode from 'vscode';
import { agentDataFolders, agentHome, EDITOR_STORAGE_ENV } from '../../src/node/agent-home';
import { editorStorageFolders } from '../../src/vscode/editor-storage';
import { bundledServerEnv } from '../../src/core/mcp/hub/bundled-servers';

const uri = (fsPath: string): vscode.Uri => ({ fsPath }) as vscode.Uri;

test("the agent's home, then the editor's folders; a relative entry is not a folder to hide", () => {
  const env = { HOME: '/home/p', MCP_AGENT_HOME: '/data/agent', [EDITOR_STORAGE_ENV]: ['/e/global', 'relative', '', '/e/ws'].join(delimiter) };
  assert.deepEqual(agentDataFolders(env), ['/data/agent', '/e/global', '/e/ws']);
  assert.equal(agentDataFolders({ MCP_AGENT_HOME: '' })[0], agentHome({}));
});

test("in VS Code's layout the whole globalStorage and workspaceStorage are named, and the extension's log", () => {
  const user = '/home/p/.config/Code/User';
  const folders = editorStorageFolders({
    globalStorageUri: uri(join(user, 'globalStorage', 'mcp-agent.mcp-agent')),
    storageUri: uri(join(user, 'workspaceStorage', '0123abcd', 'mcp-agent.mcp-agent')),
    logUri: uri('/home/p/.config/Code/logs/20261202/window1/exthost/mcp-agent.mcp-agent'),
  });
  assert.deepEqual(folders, [
    join(user, 'globalStorage'),
    join(user, 'workspaceStorage'),
    '/home/p/.config/Code/logs/20261202/window1/exthost/mcp-agent.mcp-agent',
  ]);
});

test('in another layout only the extension’s own folders are named, never their parents', () => {
  const folders = editorStorageFolders({ globalStorageUri: uri('/s/global'), storageUri: uri('/s/ws/here'), logUri: uri('/s/log') });
  assert.deepEqual(folders, ['/s/global', '/s/ws/here', '/s/log']);
  assert.deepEqual(editorStorageFolders({ globalStorageUri: uri('/s/global'), storageUri: undefined, logUri: uri('/s/log') }), ['/s/global', '/s/log']);
});

test('the editor folders reach the workspace server and the orchestrator (which starts workspace servers for sub-agents)', () => {
  const host = { [EDITOR_STORAGE_ENV]: '/e/global', GITHUB_TOKEN: 'x' };
  assert.deepEqual(bundledServerEnv('workspace', host), { [EDITOR_STORAGE_ENV]: '/e/global' });
  assert.deepEqual(bundledServerEnv('orchestrator', host), { [EDITOR_STORAGE_ENV]: '/e/global' });
});
