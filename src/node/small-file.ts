import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export type SmallFile =
  { kind: 'missing' } | { kind: 'not-a-file' } | { kind: 'too-big'; size: number } | { kind: 'unreadable'; message: string } | { kind: 'read'; bytes: Buffer };

/**
 * Reads a small file a project holds (a config, a .env). Opened before it is checked, so what is
 * checked is what is read, and non-blocking, so a FIFO planted under that name is refused instead
 * of hanging the reader until someone writes to it.
 */
export function readSmallFile(path: string, maxBytes: number): SmallFile {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'unreadable', message: (err as Error).message };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { kind: 'not-a-file' };
    if (st.size > maxBytes) return { kind: 'too-big', size: st.size };
    const bytes = Buffer.alloc(st.size);
    let got = 0;
    while (got < bytes.length) {
      const n = readSync(fd, bytes, got, bytes.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return { kind: 'read', bytes: bytes.subarray(0, got) };
  } catch (err) {
    return { kind: 'unreadable', message: (err as Error).message };
  } finally {
    closeSync(fd);
  }
}
