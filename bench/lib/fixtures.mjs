// Generated inputs: a 20 MB text file and a 10,000-file tree, in temp folders.
import { mkdirSync, mkdtempSync, openSync, closeSync, writeSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const tempDir = (tag) => mkdtempSync(join(tmpdir(), `mcp-agent-bench-${tag}-`));

/** `bytes` of text in lines of 100 bytes ("line 000123: ..."); returns the line count. */
export function writeBigText(file, bytes) {
  const filler = 'the quick brown fox jumps over the lazy dog and keeps running through the field '.repeat(2);
  const lines = Math.floor(bytes / 100);
  const fd = openSync(file, 'w');
  try {
    const batch = [];
    for (let i = 1; i <= lines; i++) {
      const head = `line ${String(i).padStart(7, '0')}: `;
      batch.push(`${head}${filler.slice(0, 99 - head.length)}\n`);
      if (batch.length === 10_000 || i === lines) {
        writeSync(fd, batch.join(''));
        batch.length = 0;
      }
    }
  } finally {
    closeSync(fd);
  }
  return lines;
}

/**
 * dirs × files small files (dir-NN/item-NN.txt), plus a .git and a node_modules holding
 * `skipped` files each that a well-behaved lister leaves alone.
 */
export function writeTree(root, { dirs = 100, files = 100, skipped = 1000 } = {}) {
  const pad = (n) => String(n).padStart(2, '0');
  for (let d = 0; d < dirs; d++) {
    const dir = join(root, `dir-${pad(d)}`);
    mkdirSync(dir);
    for (let f = 0; f < files; f++) writeFileSync(join(dir, `item-${pad(f)}.txt`), `file ${d}/${f}\n`);
  }
  for (const hidden of ['.git/objects', 'node_modules/pkg']) {
    for (let d = 0; d < skipped / 100; d++) {
      const dir = join(root, hidden, `sub-${pad(d)}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 100; f++) writeFileSync(join(dir, `item-${pad(f)}.txt`), 'x\n');
    }
  }
  return { files: dirs * files, skipped: 2 * skipped };
}
