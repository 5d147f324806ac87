import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { lstat, mkdir, realpath, unlink, writeFile } from 'node:fs/promises';
import { devNull } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isInside } from '../../node/path-inside';
import {
  BUILT_IN_EXCLUDED,
  DEFAULT_LIMITS,
  excludeOptions,
  excludePathspecs,
  notCovered,
  snapshotScope,
  type LeftOut,
  type NotCovered,
  type SnapshotLimits,
} from './snapshot-scope';

/** A path planUndo cannot touch (it leads out of the workspace): never equal to a blob. */
const OUTSIDE = '\0outside';

/** A commit of the work tree, and the files it left out (snapshot-scope.ts). */
export interface Snapshot {
  hash: string;
  left: LeftOut[];
}

/**
 * Snapshots of the workspace in a git repository of our own (in the extension's storage, with
 * the workspace as its work tree), so a turn's file changes can be undone without touching the
 * person's own git history, index or stash. The workspace's .gitignore files apply, plus a few
 * folders no one wants copied (dependencies, virtualenvs), which no .gitignore can bring back, and
 * limits on what one snapshot copies (snapshot-scope.ts).
 */
export class ShadowGit {
  private ready: Promise<void> | undefined;
  private snapshots: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly gitDir: string,
    private readonly workTree: string,
    private readonly limits: SnapshotLimits = DEFAULT_LIMITS,
  ) {}

  /**
   * A commit of the work tree as it is now, but for files over the limits and those in `keepOut`
   * (which keep what the previous snapshot had of them, if anything).
   */
  snapshot(message: string, keepOut: ReadonlySet<string> = new Set()): Promise<Snapshot> {
    // One at a time: a chat's turn and a run the Sessions view started may snapshot at once, and git's index is one.
    const next = this.snapshots.then(() => this.commitWorkTree(message, keepOut));
    this.snapshots = next.catch(() => undefined);
    return next;
  }

  private async commitWorkTree(message: string, keepOut: ReadonlySet<string>): Promise<Snapshot> {
    await this.init();
    const listed = await this.git([
      'ls-files',
      '-z',
      '--others',
      '--modified',
      '--deleted',
      '--exclude-standard',
      ...excludeOptions(),
      '--',
      '.',
      ...excludePathspecs(),
    ]);
    // A deleted file is listed as modified too.
    const candidates = [...new Set(listed.split('\0').filter(Boolean))];
    const scope = await snapshotScope(candidates, this.workTree, this.limits, keepOut);
    // Names as they are: a file called `*.txt` must not stage every text file.
    if (scope.paths.length > 0)
      await this.git(['--literal-pathspecs', 'add', '--all', '--pathspec-from-file=-', '--pathspec-file-nul'], scope.paths.join('\0'));
    await this.git(['commit', '--quiet', '--allow-empty', '--no-verify', '-m', message]);
    return { hash: (await this.git(['rev-parse', 'HEAD'])).trim(), left: scope.left };
  }

  /** The files changed between two snapshots that neither holds (too big): Restore cannot put them back. */
  notCovered(before: Snapshot, after: Snapshot): Promise<NotCovered[]> {
    return notCovered(before.left, after.left, this.workTree);
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

  /**
   * What undoing several turns would do, newest first (each put back as `restore` would, the files a later
   * turn changed already back to how that turn found them): which files go back, and which are left as they
   * are because they changed again since (by the person, or anyone but those turns).
   */
  async planUndo(turns: ReadonlyArray<{ before: string; after: string }>): Promise<{ restore: string[]; skip: string[] }> {
    const now = new Map<string, string | undefined>();
    const restore = new Set<string>();
    const skip = new Set<string>();
    for (const { before, after } of [...turns].reverse()) {
      for (const rel of await this.changed(before, after)) {
        if (!now.has(rel)) {
          const abs = await this.insidePath(rel);
          now.set(rel, abs ? await this.currentBlob(abs) : OUTSIDE);
        }
        if (now.get(rel) === OUTSIDE || now.get(rel) !== (await this.blobAt(after, rel))) {
          skip.add(rel);
          continue;
        }
        now.set(rel, await this.blobAt(before, rel));
        restore.add(rel);
      }
    }
    return { restore: [...restore], skip: [...skip].filter((p) => !restore.has(p)) };
  }

  /** Undoes several turns, newest first, as planUndo says. */
  async undo(turns: ReadonlyArray<{ before: string; after: string }>): Promise<{ restored: string[]; skipped: string[] }> {
    const restored = new Set<string>();
    const skipped = new Set<string>();
    for (const { before, after } of [...turns].reverse()) {
      const done = await this.restore(before, after);
      for (const p of done.restored) restored.add(p);
      for (const p of done.skipped) skipped.add(p);
    }
    return { restored: [...restored], skipped: [...skipped].filter((p) => !restored.has(p)) };
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
        writeFileSync(join(this.gitDir, 'info', 'exclude'), BUILT_IN_EXCLUDED.join('\n') + '\n');
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

  private git(args: string[], input?: string): Promise<string> {
    return this.gitBuffer(args, input).then((b) => b.toString('utf8'));
  }

  private gitBuffer(args: string[], input?: string): Promise<Buffer> {
    return new Promise((resolvePromise, reject) => {
      const child = execFile(
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
      child.stdin?.end(input);
    });
  }
}
