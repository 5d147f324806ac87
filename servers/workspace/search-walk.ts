import { lstatSync, type Dir, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { opendirInsideSync } from '../../src/node/confined-fs';
import { ToolError } from '../lib/results';
import type { NameTest } from './glob';
import { IGNORED_DIRS } from './list-directory';

export interface WalkOptions {
  /** The workspace's real path: nothing outside it is listed, even if a folder is swapped mid-walk. */
  root: string;
  start: string;
  startRel: string;
  test: NameTest;
  includeIgnored: boolean;
  /** Stop after this many matching files. */
  limit: number;
  budgetMs: number;
  maxVisited: number;
}

export interface WalkEnd {
  visited: number;
  stoppedEarly: string | undefined;
  /** Folders that were replaced by a symlink leading out between being listed and being opened. */
  skippedMoved: number;
}

/** A folder found during the walk; 'moved' when it became a symlink leading out since its parent was listed. */
function openFolder(root: string, dir: string, rel: string): Dir | 'moved' | undefined {
  try {
    return opendirInsideSync(root, dir, rel);
  } catch (err) {
    return err instanceof ToolError ? 'moved' : undefined;
  }
}

/**
 * Depth-first walk with synchronous directory reads (for 10,000 files, tens of milliseconds). It
 * runs in a worker thread; entries and time are capped, and `onFile` gets every matching file.
 */
export function walk(opts: WalkOptions, onFile: (real: string, rel: string) => void): WalkEnd {
  const out: WalkEnd = { visited: 0, stoppedEarly: undefined, skippedMoved: 0 };
  const deadline = performance.now() + opts.budgetMs;
  let found = 0;
  const stack: Array<[string, string]> = [[opts.start, opts.startRel === '.' ? '' : opts.startRel]];
  while (stack.length > 0) {
    const [dir, rel] = stack.pop() as [string, string];
    const handle = openFolder(opts.root, dir, rel || '.');
    if (handle === 'moved') out.skippedMoved++;
    if (handle === undefined || handle === 'moved') continue; // unreadable folder: skip it, as find(1) would
    try {
      let e: Dirent | null;
      while ((e = handle.readSync()) !== null) {
        out.visited++;
        const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
        const full = join(dir, e.name);
        let isDir = e.isDirectory();
        let isFile = e.isFile();
        if (!isDir && !isFile && !e.isSymbolicLink() && !e.isFIFO() && !e.isSocket()) {
          // Some file systems do not report entry types: ask, without following links.
          const st = lstatSync(full, { throwIfNoEntry: false });
          isDir = st?.isDirectory() ?? false;
          isFile = st?.isFile() ?? false;
        }
        if (isDir) {
          if (opts.includeIgnored || !IGNORED_DIRS.has(e.name)) stack.push([full, childRel]);
        } else if (isFile && opts.test(e.name, childRel)) {
          onFile(full, childRel);
          if (++found >= opts.limit) {
            out.stoppedEarly = `stopped at ${opts.limit} matching files`;
            return out;
          }
        }
        if (out.visited >= opts.maxVisited) out.stoppedEarly = `stopped after looking at ${opts.maxVisited} entries`;
        else if (performance.now() > deadline) out.stoppedEarly = `stopped after ${opts.budgetMs / 1000} s of walking`;
        if (out.stoppedEarly) return out;
      }
    } finally {
      handle.closeSync();
    }
  }
  return out;
}
