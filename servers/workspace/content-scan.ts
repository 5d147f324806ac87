import { closeSync, constants, fstatSync, readSync } from 'node:fs';
import { openInsideSync } from '../../src/node/confined-fs';

export interface ContentMatch {
  rel: string;
  line: number;
  text: string;
}

export interface ScanCounts {
  scanned: number;
  binary: number;
  large: number;
}

export interface ScanOptions {
  root: string;
  source: string;
  flags: string;
  maxResults: number;
  maxFileBytes: number;
  maxLineChars: number;
}

/** O_NONBLOCK: a FIFO that took a file's place must not block the read. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** The whole of a regular file no larger than `max`; 'large', or undefined when it is not one (any more). */
function readSmallFile(root: string, real: string, rel: string, max: number): Buffer | 'large' | undefined {
  let fd: number;
  try {
    // Checked once open: a folder swapped for a symlink since the walk must not lead the read out.
    fd = openInsideSync(root, real, READ_FLAGS, rel);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return undefined;
    if (st.size > max) return 'large';
    const buf = Buffer.allocUnsafe(st.size);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Searches files line by line for the caller's regular expression. It runs in a worker thread
 * because one with catastrophic backtracking would freeze whatever thread runs it; a worker can be
 * terminated. `onBatch` gets each file's matches as soon as the file is done, so a scan stopped
 * midway still has what it found.
 */
export function scanContents(files: Array<[string, string]>, opts: ScanOptions, onBatch: (batch: ContentMatch[], counts: ScanCounts) => void): ScanCounts {
  const re = new RegExp(opts.source, opts.flags.replace(/[gy]/g, ''));
  const counts: ScanCounts = { scanned: 0, binary: 0, large: 0 };
  let found = 0;
  for (const [real, rel] of files) {
    if (found >= opts.maxResults) break;
    const buf = readSmallFile(opts.root, real, rel, opts.maxFileBytes);
    if (buf === undefined) continue;
    if (buf === 'large') {
      counts.large++;
      continue;
    }
    if (buf.subarray(0, 8192).includes(0)) {
      counts.binary++;
      continue;
    }
    counts.scanned++;
    const text = buf.toString('utf8');
    const batch: ContentMatch[] = [];
    let start = 0;
    let line = 1;
    while (start <= text.length && found < opts.maxResults) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      const s = text.slice(start, end);
      if (re.test(s)) {
        found++;
        const shown = s.replace(/\r$/, '');
        batch.push({ rel, line, text: shown.length > opts.maxLineChars ? `${shown.slice(0, opts.maxLineChars)}…` : shown });
      }
      start = end + 1;
      line++;
    }
    onBatch(batch, { ...counts });
  }
  return counts;
}
