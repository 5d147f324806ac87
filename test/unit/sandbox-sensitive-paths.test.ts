import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSensitivePath, RUNS_BY_ITSELF, sensitiveWhy } from '../../src/node/sensitive-paths';
import { approvalNeed } from '../../src/core/tool-call/approval-policy';
import type { HubTool } from '../../src/core/mcp/types';

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
    '.github/ISSUE_TEMPLATE/bug.md',
    '.github/CODEOWNERS',
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

/** Files a tool in the repository runs or loads by itself, beyond the editor's and MCP hosts': each asks. */
const RUN_BY_TOOLS = [
  '.pre-commit-config.yaml',
  'lefthook.yml',
  'sub/lefthook-local.yaml',
  '.husky/pre-commit',
  '.githooks/pre-push',
  '.lintstagedrc.json',
  '.yarnrc.yml',
  '.yarnrc',
  '.yarn/plugins/@yarnpkg/plugin-evil.cjs',
  '.yarn/releases/yarn-4.1.0.cjs',
  '.pnpmfile.cjs',
  'pnpm-workspace.yaml',
  '.npmrc',
  'packages/app/.npmrc',
  'package.json',
  'packages/app/package.json',
  'bunfig.toml',
  '.devcontainer/devcontainer.json',
  '.devcontainer/Dockerfile',
  '.devcontainer/post-create.sh',
  '.devcontainer.json',
  '.envrc',
  'mise.toml',
  '.github/workflows/ci.yml',
  '.github/actions/setup/action.yml',
  '.gitlab-ci.yml',
  '.circleci/config.yml',
  'Jenkinsfile',
  '.vscode/tasks.json',
  '.vscode/launch.json',
  '.gitmodules',
];

test('every file a tool runs or loads by itself asks: hook managers, package managers, dev containers, task runners, CI', () => {
  for (const p of RUN_BY_TOOLS) assert.equal(isSensitivePath(p), true, p);
  // Spelled as a file system could: case, a Windows trailing dot.
  for (const p of ['.PRE-COMMIT-CONFIG.YAML', 'LeftHook.yml', '.npmrc.', 'Package.JSON', '.DevContainer/devcontainer.json', 'jenkinsfile'])
    assert.equal(isSensitivePath(p), true, p);
});

test('ordinary project files next to them do not', () => {
  for (const p of [
    'src/index.ts',
    'package-lock.json',
    'yarn.lock',
    'pnpm-lock.yaml',
    'packages/app/src/package.ts',
    'docs/pre-commit.md',
    'lefthook.md',
    '.yarn/cache/lodash.zip',
    'devcontainer.md',
    'README.md',
    'tsconfig.json',
    'workflows/ci.yml',
    '.github/dependabot-notes.md',
  ])
    assert.equal(isSensitivePath(p), false, p);
});

test("every entry of every group asks, and says its group's why", () => {
  for (const group of RUNS_BY_ITSELF) {
    assert.match(group.why, /^[A-Z].*\.$/, 'a one-line why');
    for (const file of group.files ?? []) assert.equal(sensitiveWhy(`some/dir/${file}`), group.why, file);
    for (const folder of group.folders ?? []) assert.equal(sensitiveWhy(`${folder}/any/file.txt`), group.why, folder);
    for (const ending of group.endings ?? []) assert.equal(sensitiveWhy(`x${ending}`), group.why, ending);
  }
});

test('"always" for write_file and edit_file never skips the question for these', () => {
  const always = { has: () => true, add: () => undefined };
  const tool = (name: string): HubTool => ({
    server: 'workspace',
    qualifiedName: `workspace__${name}`,
    tool: { name, inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: true } },
  });
  for (const p of RUN_BY_TOOLS) {
    for (const [name, input] of [
      ['write_file', { path: p, content: 'x' }],
      ['edit_file', { path: p, old_text: 'a', new_text: 'b' }],
    ] as const) {
      const need = approvalNeed(tool(name), input, always);
      assert.equal(need.ask, true, `${name} ${p}`);
      assert.equal(need.ask && need.alwaysKind, 'none', `${name} ${p}: no "always" offered`);
      assert.match(need.ask ? need.warnings.join(' ') : '', /always needs your approval/);
    }
  }
  // An ordinary file under the same "always" runs at once.
  assert.equal(approvalNeed(tool('write_file'), { path: 'src/index.ts', content: 'x' }, always).ask, false);
});
