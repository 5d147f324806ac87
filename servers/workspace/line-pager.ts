import type { FileHandle } from 'node:fs/promises';

/** One checkpoint every this many lines: a far page starts at most this many lines before it. */
const CHECKPOINT_EVERY = 256;
const CHUNK = 1 << 20;
const NEWLINE = 0x0a;

/** Where lines start in one version of one file (identified by path, inode, size and mtime). */
interface LineIndex {
  lines: number;
  /** Byte offset of line 1 + k * CHECKPOINT_EVERY. */
  checkpoints: Float64Array;
}

export interface Page {
  text: string;
  firstLine: number;
  lastLine: number;
  totalLines: number;
  /** The page stopped at the byte cap rather than the line limit. */
  cutByBytes: boolean;
  /** A single line was longer than the byte cap and only its start is shown. */
  longLineCut: boolean;
}

const cache = new Map<string, LineIndex>();
const CACHE_SIZE = 32;

async function buildIndex(fh: FileHandle, size: number): Promise<LineIndex> {
  const checkpoints: number[] = [0];
  const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(size, 1)));
  let pos = 0;
  let newlines = 0;
  let lastByte = -1;
  while (pos < size) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, size - pos), pos);
    if (bytesRead === 0) break;
    let i = buf.indexOf(NEWLINE, 0);
    while (i !== -1 && i < bytesRead) {
      newlines++;
      if (newlines % CHECKPOINT_EVERY === 0) checkpoints.push(pos + i + 1);
      i = buf.indexOf(NEWLINE, i + 1);
    }
    lastByte = buf[bytesRead - 1] ?? lastByte;
    pos += bytesRead;
  }
  const lines = newlines + (pos > 0 && lastByte !== NEWLINE ? 1 : 0);
  return { lines, checkpoints: Float64Array.from(checkpoints) };
}

async function indexFor(fh: FileHandle, key: string, size: number): Promise<LineIndex> {
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const index = await buildIndex(fh, size);
  cache.set(key, index);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return index;
}

/** Calls `onNewline(absolutePosition)` for each newline from `start` until it returns false or EOF. */
async function scanNewlines(fh: FileHandle, start: number, size: number, onNewline: (at: number) => boolean): Promise<void> {
  const buf = Buffer.allocUnsafe(64 * 1024);
  let pos = start;
  while (pos < size) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, size - pos), pos);
    if (bytesRead === 0) return;
    let i = buf.indexOf(NEWLINE, 0);
    while (i !== -1 && i < bytesRead) {
      if (!onNewline(pos + i)) return;
      i = buf.indexOf(NEWLINE, i + 1);
    }
    pos += bytesRead;
  }
}

/** Drops a UTF-8 sequence cut in half at the end of `buf`. */
function wholeCharacters(buf: Buffer): Buffer {
  let end = buf.length;
  let back = 0;
  while (back < 4 && ((buf[end - back - 1] ?? 0) & 0xc0) === 0x80) back++;
  const lead = buf[end - back - 1];
  if (lead === undefined) return buf;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (need > back + 1) end = end - back - 1;
  return buf.subarray(0, end);
}

/**
 * Lines `offset .. offset+limit-1` (1-based) of a text file, at most `byteCap` bytes, read without
 * loading the file: a cached index of every 256th line start lets any page begin near its place.
 */
export async function readPage(fh: FileHandle, key: string, size: number, offset: number, limit: number, byteCap: number): Promise<Page> {
  const index = await indexFor(fh, key, size);
  if (offset > index.lines) {
    throw new RangeError(`offset ${offset} is past the end of the file: it has ${index.lines} line${index.lines === 1 ? '' : 's'}.`);
  }
  const cp = Math.floor((offset - 1) / CHECKPOINT_EVERY);
  let line = cp * CHECKPOINT_EVERY + 1;
  // The index holds a line start for every 256th line up to its last, and offset is within the file.
  let startByte = index.checkpoints[cp] ?? 0;
  if (index.checkpoints[cp] === undefined) line = 1;
  let endByte = -1;
  let lastLine = offset - 1;
  let cutByBytes = false;
  let stopped = false;
  await scanNewlines(fh, startByte, size, (at) => {
    if (line < offset) {
      line++;
      startByte = at + 1;
      return true;
    }
    // `at` ends line `line`; the page takes it when it fits.
    if (at + 1 - startByte > byteCap && lastLine >= offset) {
      cutByBytes = true;
      stopped = true;
      return false;
    }
    endByte = at + 1;
    lastLine = line;
    line++;
    stopped = lastLine - offset + 1 >= limit || endByte - startByte > byteCap;
    return !stopped;
  });
  // The last line may have no newline; take it when the page has room for it.
  if (!stopped && lastLine < offset + limit - 1 && lastLine < index.lines) {
    if (size - startByte <= byteCap || lastLine < offset) {
      endByte = size;
      lastLine = index.lines;
    } else {
      cutByBytes = true;
    }
  }
  let longLineCut = false;
  if (endByte - startByte > byteCap) {
    endByte = startByte + byteCap;
    longLineCut = true;
  }
  let buf: Buffer = Buffer.alloc(Math.max(0, endByte - startByte));
  if (buf.length > 0) await fh.read(buf, 0, buf.length, startByte);
  if (longLineCut) buf = wholeCharacters(buf);
  return { text: buf.toString('utf8'), firstLine: offset, lastLine, totalLines: index.lines, cutByBytes, longLineCut };
}
