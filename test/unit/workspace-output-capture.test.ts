import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CappedOutput } from '../../servers/workspace/output-capture';

test('small output passes whole', () => {
  const o = new CappedOutput(10, 10);
  o.push(Buffer.from('hello '));
  o.push(Buffer.from('world'));
  assert.equal(o.text(), 'hello world');
  assert.equal(o.cut, 0);
});

test('big output keeps head and tail and says how much was cut', () => {
  const o = new CappedOutput(8, 8);
  o.push(Buffer.from('HEADHEAD'));
  for (let i = 0; i < 10_000; i++) o.push(Buffer.from('x'.repeat(100)));
  o.push(Buffer.from('TAILTAIL'));
  assert.equal(o.total, 8 + 1_000_000 + 8);
  assert.equal(o.cut, 1_000_000);
  const t = o.text();
  assert.ok(t.startsWith('HEADHEAD\n[... '));
  assert.ok(t.endsWith('TAILTAIL'));
  assert.match(t, /cut: showing the first 8 bytes and the last 8 bytes of/);
  assert.ok(t.length < 200);
});
