import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { StderrTail } from '../../src/core/mcp/transport/stderr-tail';

describe('StderrTail', () => {
  test('keeps only the last capacity bytes however much comes in', () => {
    const tail = new StderrTail(100);
    for (let i = 0; i < 10_000; i++) tail.push(`line ${i}\n`);
    tail.push(Buffer.alloc(1_000_000, 'z'));
    tail.push('the end\n');
    assert.ok(tail.held <= 100);
    assert.ok(tail.total > 1_000_000);
    assert.match(tail.text(), /zzzthe end$/);
  });

  test('text(maxChars) shortens from the front', () => {
    const tail = new StderrTail(1000);
    tail.push('first line\nsecond line\n');
    assert.equal(tail.text(6), '… line');
  });
});
