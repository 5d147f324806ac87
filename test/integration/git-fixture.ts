/**
 * Real git repositories for tests, built with the git on PATH: a workspace repo with a submodule
 * (its git dir in `.git/modules/sub/`) and a linked worktree (`wt/.git` is a `gitdir:` file).
 * Git runs with no global or system config, so the machine's settings change nothing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface GitFixture {
  /** Holds everything below; remove it when done. */
  root: string;
  /** The workspace: a repo with `sub/` (submodule) and `wt/` (worktree of branch `side`). */
  ws: string;
  /** Runs git in `cwd` (relative to ws) and returns its exit status and output; never throws. */
  git(cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string };
}

function gitEnv(root: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: root,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.invalid',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.invalid',
  };
}

export function makeGitFixture(): GitFixture {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'git-fixture-')));
  const env = gitEnv(root);
  const run = (cwd: string, ...args: string[]): void => void execFileSync('git', args, { cwd, env, stdio: 'pipe' });
  const origin = join(root, 'origin-sub');
  const ws = join(root, 'ws');
  mkdirSync(origin);
  mkdirSync(ws);
  run(origin, 'init', '-q', '-b', 'main');
  writeFileSync(join(origin, 's.txt'), 'sub\n');
  run(origin, 'add', '.');
  run(origin, 'commit', '-qm', 'sub');
  run(ws, 'init', '-q', '-b', 'main');
  writeFileSync(join(ws, 'README.md'), 'readme\n');
  run(ws, 'add', '.');
  run(ws, 'commit', '-qm', 'readme');
  run(ws, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', origin, 'sub');
  run(ws, 'commit', '-qm', 'sub');
  run(ws, 'worktree', 'add', '-q', '-b', 'side', 'wt');
  return {
    root,
    ws,
    git(cwd, ...args) {
      const r = spawnSync('git', args, { cwd: join(ws, cwd), env, encoding: 'utf8' });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    },
  };
}

/**
 * A git config section that makes any index-refreshing command (`git status`) create `marker`
 * by running a shell command, as an injected `core.fsmonitor` would run anything.
 */
export function fsmonitorSection(marker: string): string {
  // git appends ` "$@"` (the hook's arguments) to a shell command: the comment swallows them.
  return `[core]\n\tfsmonitor = "echo planted > '${marker}' #"\n`;
}

/** A git dir git accepts (HEAD, objects/, refs/) whose config runs `fsmonitorSection(marker)`. */
export function plantGitDir(dir: string, marker: string): void {
  mkdirSync(join(dir, 'objects'), { recursive: true });
  mkdirSync(join(dir, 'refs', 'heads'), { recursive: true });
  writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(dir, 'config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n${fsmonitorSection(marker)}`);
}
