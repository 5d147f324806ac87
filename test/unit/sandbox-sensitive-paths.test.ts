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

test('anything in or named .git is sensitive: commondir, modules, worktrees, a .git file', () => {
  for (const p of [
    '.git',
    '.git/',
    '.git/hooks',
    '.git/commondir',
    '.git/HEAD',
    '.git/info/attributes',
    '.git/modules/sub/config',
    '.git/modules/sub/hooks/post-checkout',
    '.git/modules/a/modules/b/config',
    '.git/worktrees/wt/gitdir',
    'sub/.git',
    'wt/.git',
    '/abs/ws/sub/.git',
    '.git/./config',
    'a/b/../../.git/config',
    'notes/../.git/hooks/pre-push',
    '.git\\modules\\sub\\config',
    // Folding may make `..` of `．．`, but only the ASCII one climbs: this stays inside .git.
    '.git/．．/notes.txt',
    // Bare repositories: named *.git by convention, and HEAD is what makes a folder one.
    'fixtures/repo.git/config',
    'evil/HEAD',
    'evil/head',
  ]) {
    assert.equal(isSensitivePath(p), true, p);
  }
});

test('case folding beyond toLowerCase, Unicode forms and invisible characters do not hide a name', () => {
  for (const p of [
    '.GIT/config',
    '.Git/Hooks/pre-commit',
    '.g\u0131t/config', // dotless ı uppercases to I
    '.g\u0130t/config', // dotted İ
    '.v\u017Fcode/settings.json', // long ſ uppercases to S
    '.vscode/\u017Fettings.json',
    'claude_des\u212Atop_config.json', // Kelvin sign K
    '\uFF0E\uFF47\uFF49\uFF54/config', // fullwidth ．ｇｉｔ
    '.vscode/\uFF54\uFF41\uFF53\uFF4B\uFF53.json',
    '.gi\u0308t/config', // NFD with a combining mark
    '.g\u00EFt/config', // the same, NFC
    '.g\u200Cit/config', // zero-width non-joiner: HFS+ ignores it
    '.vscode\u200D/settings.json',
    '\uFEFF.git/config',
    '.mcp\u00AD.json', // soft hyphen
    '.VSCODE/TASKS.JSON',
    'Team.CODE-WORKSPACE',
  ]) {
    assert.equal(isSensitivePath(p), true, JSON.stringify(p));
  }
});

test('Windows names: trailing dots and spaces, alternate streams, 8.3 short names', () => {
  for (const p of [
    '.git./config',
    '.git /config',
    '.git. . /hooks/pre-commit',
    '.git::$INDEX_ALLOCATION/config',
    '.git:stream',
    '.vscode. /settings.json',
    'sub\\.git.',
    'git~1/config',
    'GIT~1\\hooks\\pre-commit',
    'VSCODE~1/settings.json',
    '.vscode/SETTIN~1.JSO',
    'GITMOD~1',
    'proj/WS~1.COD',
  ]) {
    assert.equal(isSensitivePath(p), true, JSON.stringify(p));
  }
});

test('near misses stay ordinary', () => {
  for (const p of [
    '.github/workflows/ci.yml',
    '.gitignore',
    '.gitattributes',
    '.gitkeep',
    'docs/git.md',
    'my-git/config',
    'digit/notes.txt',
    'notes/.git-notes.md',
    'head.txt',
    'src/HEADER.md',
    'header',
    'backup~old.txt',
    'a~1b',
    'verylongname~1',
    '.git/../notes.txt',
    'sub/.git/..',
    '.vscode/settings.json.bak',
    'vscode-settings.json',
  ]) {
    assert.equal(isSensitivePath(p), false, JSON.stringify(p));
  }
});

test('agent definitions and orchestrator session histories are sensitive: one could pre-approve tools for the next agent', () => {
  for (const p of [
    '.mcp-agent/agents/reviewer.md',
    '.claude/agents/helper.md',
    '.Claude/Agents/x.MD',
    '.mcp-agent/sessions/fix-bug/messages.jsonl',
    'sub/.mcp-agent/sessions/a/session.json',
  ]) {
    assert.equal(isSensitivePath(p), true, p);
  }
  for (const p of ['.mcp-agent/papers/ml/x.json', 'docs/agents/readme.md', '.mcp-agent/agents-notes.md']) assert.equal(isSensitivePath(p), false, p);
});
