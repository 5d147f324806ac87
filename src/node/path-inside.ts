import { sep } from 'node:path';

/** Windows and macOS file systems are usually case-insensitive: compare paths the way they do. */
const foldCase = process.platform === 'win32' || process.platform === 'darwin';

function key(p: string): string {
  return foldCase ? p.toLowerCase() : p;
}

/** True when `p` is `base` or below it. A bare prefix test would let `/ws_evil` pass for `/ws`. */
export function isInside(base: string, p: string): boolean {
  const b = key(base);
  const q = key(p);
  if (q === b) return true;
  const withSep = b.endsWith(sep) ? b : b + sep;
  return q.startsWith(withSep);
}
