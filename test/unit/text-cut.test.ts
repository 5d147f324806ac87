import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countLines, headOf, tailOf, utf8Bytes } from '../../src/core/agent/text-cut';

test('head and tail stay within their bytes, whole characters, at line breaks when near', () => {
  const text = 'one\ntwo\nthree\n';
  assert.equal(headOf(text, 0), '');
  assert.equal(headOf('\nabc', 0), '');
  assert.equal(headOf(text, 10), 'one\ntwo\n');
  assert.equal(headOf(text, 100), text);
  assert.equal(tailOf(text, 7), 'three\n');
  assert.equal(tailOf(text, 0), '');
  const wide = '€'.repeat(10); // 3 bytes each
  assert.equal(headOf(wide, 8), '€€');
  assert.equal(tailOf(wide, 8), '€€');
  const astral = '😀'.repeat(5); // 4 bytes, two UTF-16 units each
  assert.equal(tailOf(astral, 9), '😀😀');
  assert.ok(utf8Bytes(tailOf(astral, 9)) <= 9);
});

test('lines are counted as a person counts them', () => {
  assert.equal(countLines(''), 0);
  assert.equal(countLines('a'), 1);
  assert.equal(countLines('a\n'), 1);
  assert.equal(countLines('a\nb'), 2);
});
