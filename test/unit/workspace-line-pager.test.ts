import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPage } from '../../servers/workspace/line-pager';

let dir: string;
let n = 0;
before(() => (dir = mkdtempSync(join(tmpdir(), 'pager-'))));
after(() => rmSync(dir, { recursive: true, force: true }));

async function page(content: string | Buffer, offset: number, limit: number, cap = 1 << 20) {
  const file = join(dir, `f${n++}`);
  writeFileSync(file, content);
  const fh = await open(file, 'r');
  try {
    const size = (await fh.stat()).size;
    return await readPage(fh, `${file}:${size}`, size, offset, limit, cap);
  } finally {
    await fh.close();
  }
}

const lines = (count: number): string => Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join('');

describe('readPage', () => {
  test('first, middle and last pages across checkpoints', async () => {
    const text = lines(1000);
    const p1 = await page(text, 1, 10);
    assert.equal(p1.text, lines(10));
    assert.deepEqual([p1.firstLine, p1.lastLine, p1.totalLines], [1, 10, 1000]);
    for (const offset of [255, 256, 257, 512, 513, 700]) {
      const p = await page(text, offset, 3);
      assert.equal(p.text, `line ${offset}\nline ${offset + 1}\nline ${offset + 2}\n`, `offset ${offset}`);
    }
    const last = await page(text, 995, 100);
    assert.equal(last.lastLine, 1000);
    assert.equal(last.text.split('\n').length, 7);
  });

  test('a last line without a newline counts and is returned', async () => {
    const p = await page('a\nb\nc', 1, 10);
    assert.deepEqual([p.text, p.totalLines, p.lastLine], ['a\nb\nc', 3, 3]);
    const q = await page('a\nb\nc', 3, 10);
    assert.equal(q.text, 'c');
    const r = await page('a\nb\nc', 2, 1);
    assert.deepEqual([r.text, r.lastLine], ['b\n', 2]);
  });

  test('an offset past the end is a RangeError naming the length', async () => {
    await assert.rejects(page('a\nb\n', 3, 1), /past the end of the file: it has 2 lines/);
  });

  test('the byte cap cuts between lines', async () => {
    const p = await page(lines(100), 1, 100, 50);
    assert.ok(p.cutByBytes);
    assert.ok(Buffer.byteLength(p.text) <= 50);
    assert.ok(p.text.endsWith('\n'));
    assert.equal(p.text.split('\n').length - 1, p.lastLine);
  });

  test('a line longer than the cap shows its start, cut on a character boundary', async () => {
    const p = await page('é'.repeat(100) + '\nnext\n', 1, 10, 51);
    assert.ok(p.longLineCut);
    assert.equal(p.text, 'é'.repeat(25));
    const q = await page('é'.repeat(100), 1, 10, 51);
    assert.ok(q.longLineCut);
    assert.equal(q.text, 'é'.repeat(25));
  });

  test('CRLF files keep their line endings', async () => {
    const p = await page('a\r\nb\r\n', 2, 1);
    assert.equal(p.text, 'b\r\n');
  });
});
