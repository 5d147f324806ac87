import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSensitivePath } from '../../src/common/sensitive-paths';

test('editor, git and MCP config files are sensitive, at any depth and in any case', () => {
  for (const p of [
    '.vscode/settings.json',
    '.vscode/tasks.json',
    '.vscode/launch.json',
    '.VSCode/Settings.JSON',
    'sub/project/.vscode/tasks.json',
    './.vscode//settings.json',
    'a/../.vscode/settings.json',
    '.vscode\\tasks.json',
    'my.code-workspace',
    'nested/Team.CODE-WORKSPACE',
    '.git/hooks/pre-commit',
    '.git/hooks/sub/x',
    '.git/config',
    'vendor/lib/.git/config',
    '.vscode/mcp.json',
    '.mcp.json',
    '.cursor/mcp.json',
    'claude_desktop_config.json',
    'config/claude_desktop_config.json',
    '.mcp-agent/servers.json',
    '.claude/settings.json',
    '.vscode/settings.json.',
    '.vscode/tasks.json::$DATA',
    '/abs/ws/.git/config',
  ]) {
    assert.equal(isSensitivePath(p), true, p);
  }
});

test('ordinary files are not', () => {
  for (const p of [
    'notes.txt',
    'src/settings.json',
    'vscode/settings.json',
    '.vscode/notes.md',
    '.git/hooks',
    '.gitignore',
    'git/config',
    'mcp.json',
    'code-workspace.txt',
    'docs/.git-hooks.md',
    '.',
    '',
  ]) {
    assert.equal(isSensitivePath(p), false, p);
  }
});
