import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { CHECKPOINT_LIMITS } from '../../common/checkpoint-coverage';
import type { NotCoveredFile } from '../../common/protocol';

/** How much one snapshot may copy. */
export interface SnapshotLimits {
  /** A bigger file is left out of the snapshot. */
  maxFileBytes: number;
  /** Past this many bytes in one snapshot, the files that do not fit are left out. */
  maxTotalBytes: number;
}

/**
 * Every byte of a snapshot is hashed, compressed and kept, so one big file makes a turn's snapshot slow and the
 * checkpoints as big as the file (bench/README.md, `checkpoint`). A checkpoint is for the files a person edits, so a file over
 * 10 MiB (a data set, a build, a dump) is left out, and one snapshot copies at most 100 MiB.
 */
export const DEFAULT_LIMITS: SnapshotLimits = CHECKPOINT_LIMITS;

/**
 * Never worth a snapshot: they are rebuilt, not written by hand. Given to git as command-line excludes
 * and pathspec exclusions, which a workspace's `.gitignore` cannot undo (a `!node_modules/` there used
 * to put every dependency into the checkpoints).
 */
export const BUILT_IN_EXCLUDED = ['node_modules/', '.venv/', 'venv/', '__pycache__/', '.mcp-agent/sessions/', '*.pyc', '.DS_Store'];

/** `git ls-files -x` patterns: the highest precedence of git's excludes, so no negation overrides them. */
export function excludeOptions(): string[] {
  return BUILT_IN_EXCLUDED.flatMap((p) => ['-x', p]);
}

/** The same as pathspec exclusions, for files a snapshot already tracks (an older one, before these rules). */
export function excludePathspecs(): string[] {
  return BUILT_IN_EXCLUDED.map((p) => {
    const anchored = p.includes('/') && p.indexOf('/') < p.length - 1;
    const glob = p.endsWith('/') ? `${p}**` : p;
    return `:(exclude,glob)${anchored ? '' : '**/'}${glob}`;
  });
}

/** A file left out of a snapshot: too big by itself (`size`), or past the snapshot's total (`total`). */
export interface LeftOut {
  path: string;
  bytes: number;
  mtimeMs: number;
  reason: 'size' | 'total';
}

/** What a snapshot stages, and what it leaves out. */
export interface Scope {
  paths: string[];
  left: LeftOut[];
}

/**
 * Of the paths git would stage (new, changed or deleted; workspace-relative), those within the limits.
 * `keepOut` are left out whatever their size: the files the turn's first snapshot left out, so that its
 * second one cannot take a file the first one lacked for one the turn created.
 */
export async function snapshotScope(candidates: readonly string[], workTree: string, limits: SnapshotLimits, keepOut: ReadonlySet<string>): Promise<Scope> {
  const paths: string[] = [];
  const left: LeftOut[] = [];
  let total = 0;
  for (const path of candidates) {
    if (keepOut.has(path)) continue;
    const st = await lstat(join(workTree, path)).catch(() => undefined);
    // A deleted file costs nothing to record; a nested repository is recorded as a link, not copied.
    const bytes = st?.isFile() ? st.size : 0;
    if (bytes > limits.maxFileBytes) left.push({ path, bytes, mtimeMs: st?.mtimeMs ?? 0, reason: 'size' });
    else if (total + bytes > limits.maxTotalBytes) left.push({ path, bytes, mtimeMs: st?.mtimeMs ?? 0, reason: 'total' });
    else {
      total += bytes;
      paths.push(path);
    }
  }
  return { paths, left };
}

/** A file a turn changed that no snapshot holds, so Restore cannot put it back. */
export type NotCovered = NotCoveredFile;

/** Of the files the first snapshot left out, those the turn changed since (by size and time), with those the second one left out. */
export async function notCovered(leftBefore: readonly LeftOut[], leftAfter: readonly LeftOut[], workTree: string): Promise<NotCovered[]> {
  const changed: NotCovered[] = [];
  for (const f of leftBefore) {
    const st = await lstat(join(workTree, f.path)).catch(() => undefined);
    if (!st) changed.push({ path: f.path, bytes: f.bytes, reason: f.reason, deleted: true });
    else if (st.size !== f.bytes || st.mtimeMs !== f.mtimeMs) changed.push({ path: f.path, bytes: st.size, reason: f.reason });
  }
  return [...changed, ...leftAfter.map(({ path, bytes, reason }) => ({ path, bytes, reason }))].sort((a, b) => a.path.localeCompare(b.path));
}
