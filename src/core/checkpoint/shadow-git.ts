import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { lstat, mkdir, realpath, unlink, writeFile } from 'node:fs/promises';
import { devNull } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isInside } from '../../common/path-inside';

/**
 * Snapshots of the workspace in a git repository of our own (in the extension's storage, with
 * the workspace as its work tree), so a turn's file changes can be undone without touching the
 * person's own git history, index or stash. The workspace's .gitignore files apply, plus a few
 * folders no one wants copied (dependencies, virtualenvs, build output).
 */
export class ShadowGit {
  private ready: Promise<void> | undefined;

  constructor(
    private readonly gitDir: string,
    private readonly workTree: string,
  ) {}

  /** A commit of the work tree as it is now; its hash. */
  async snapshot(message: string): Promise<string> {
    await this.init();
    await this.git(['add', '--all', '--', '.']);
    await this.git(['commit', '--quiet', '--allow-empty', '--no-verify', '-m', message]);
    return (await this.git(['rev-parse', 'HEAD'])).trim();
  }

  /** Paths that differ between two snapshots, workspace-relative with `/`. */
  async changed(from: string, to: string): Promise<string[]> {
    const out = await this.git(['diff', '--name-only', '-z', '--no-renames', from, to, '--']);
    return out.split('\0').filter(Boolean);
  }

  /**
   * Puts back every file the turn between `before` and `after` changed, as it was at `before` (a
   * file it created is removed), unless the file changed again since `after`: those are left as
   * they are and listed, never overwritten.
   */
  async restore(before: string, after: string): Promise<{ restored: string[]; skipped: string[] }> {
    const restored: string[] = [];
    const skipped: string[] = [];
    for (const rel of await this.changed(before, after)) {
      const abs = await this.insidePath(rel);
      if (!abs || (await this.currentBlob(abs)) !== (await this.blobAt(after, rel))) {
        skipped.push(rel);
        continue;
      }
      const old = await this.blobAt(before, rel);
      if (old === undefined) await unlink(abs).catch(() => undefined);
      else {
        await mkdir(dirname(abs), { recursive: true });
        await writeFile(abs, await this.gitBuffer(['cat-file', 'blob', old]));
      }
      restored.push(rel);
    }
    return { restored, skipped };
  }

  /** What `restore` would do, without doing it: for the person to confirm first. */
  async plan(before: string, after: string): Promise<{ restore: string[]; skip: string[] }> {
    const restore: string[] = [];
    const skip: string[] = [];
    for (const rel of await this.changed(before, after)) {
      const abs = await this.insidePath(rel);
      if (abs && (await this.currentBlob(abs)) === (await this.blobAt(after, rel))) restore.push(rel);
      else skip.push(rel);
    }
    return { restore, skip };
  }

  private init(): Promise<void> {
    this.ready ??= (async () => {
      if (!existsSync(join(this.gitDir, 'HEAD'))) {
        mkdirSync(this.gitDir, { recursive: true });
        await this.git(['init', '--quiet']);
        await this.git(['config', 'core.autocrlf', 'false']);
        await this.git(['config', 'core.quotepath', 'false']);
        await this.git(['config', 'commit.gpgsign', 'false']);
        mkdirSync(join(this.gitDir, 'info'), { recursive: true });
        writeFileSync(join(this.gitDir, 'info', 'exclude'), EXCLUDED.join('\n') + '\n');
      }
    })();
    return this.ready;
  }

  /** The blob a snapshot holds for a path, or undefined when it has none. */
  private async blobAt(rev: string, rel: string): Promise<string | undefined> {
    try {
      return (await this.git(['rev-parse', '--verify', '--quiet', `${rev}:${rel}`])).trim() || undefined;
    } catch {
      return undefined;
    }
  }

  /** The blob hash the file has now (as git would store it), undefined when it is gone. */
  private async currentBlob(abs: string): Promise<string | undefined> {
    try {
      const st = await lstat(abs);
      if (!st.isFile()) return undefined;
      return (await this.git(['hash-object', '--no-filters', '--', abs])).trim();
    } catch {
      return undefined;
    }
  }

  /** A path git named, as an absolute path that stays in the workspace (its parent followed through links). */
  private async insidePath(rel: string): Promise<string | undefined> {
    const root = await realpath(this.workTree);
    const abs = resolve(root, rel);
    if (!isInside(root, abs)) return undefined;
    let parent = dirname(abs);
    while (!existsSync(parent) && isInside(root, dirname(parent))) parent = dirname(parent);
    const realParent = await realpath(parent).catch(() => undefined);
    return realParent && isInside(root, realParent) ? abs : undefined;
  }

  private git(args: string[]): Promise<string> {
    return this.gitBuffer(args).then((b) => b.toString('utf8'));
  }

  private gitBuffer(args: string[]): Promise<Buffer> {
    return new Promise((resolvePromise, reject) => {
      execFile(
        'git',
        args,
        {
          cwd: this.workTree,
          encoding: 'buffer',
          maxBuffer: 256 * 1024 * 1024,
          env: {
            ...process.env,
            GIT_DIR: this.gitDir,
            GIT_WORK_TREE: this.workTree,
            GIT_AUTHOR_NAME: 'MCP Agent',
            GIT_AUTHOR_EMAIL: 'checkpoints@mcp-agent.invalid',
            GIT_COMMITTER_NAME: 'MCP Agent',
            GIT_COMMITTER_EMAIL: 'checkpoints@mcp-agent.invalid',
            // The person's hooks, templates and global config have no business here.
            GIT_CONFIG_NOSYSTEM: '1',
            GIT_CONFIG_GLOBAL: devNull,
            GIT_TERMINAL_PROMPT: '0',
          },
        },
        (err, stdout, stderr) => {
          if (err) reject(new Error(`git ${args[0]} failed: ${stderr.toString('utf8').trim() || err.message}`));
          else resolvePromise(stdout);
        },
      );
    });
  }
}

/** Never worth a snapshot: they are rebuilt, not written by hand (the workspace's .gitignore adds its own). */
const EXCLUDED = ['node_modules/', '.venv/', 'venv/', '__pycache__/', '.mcp-agent/sessions/', '*.pyc', '.DS_Store'];
