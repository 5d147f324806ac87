import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StderrLines } from '../../src/core/mcp/transport/stderr-lines';

test('stderr is split into lines across chunks, multi-byte characters included, the last one on end', () => {
  const lines: string[] = [];
  const s = new StderrLines((l) => lines.push(l));
  const bytes = Buffer.from('one\r\ntwo é\nthr');
  s.push(bytes.subarray(0, 10)); // cuts "é" in half
  s.push(bytes.subarray(10));
  s.push(Buffer.from('ee'));
  s.end();
  assert.deepEqual(lines, ['one', 'two é', 'three']);
});

test('a line without end is cut at 8 KiB, once, and its tail dropped', () => {
  const lines: string[] = [];
  const s = new StderrLines((l) => lines.push(l));
  for (let i = 0; i < 100; i++) s.push(Buffer.from('x'.repeat(1024)));
  s.push(Buffer.from('tail\nnext\n'));
  assert.equal(lines.length, 2);
  assert.match(lines[0] ?? '', /^x{8192}… \(line cut\)$/);
  assert.equal(lines[1], 'next');
});
