import assert from 'node:assert/strict';

/** Item `i` of `items`, failing the test with a message when there is none (an index may be out of range). */
export function nth<T>(items: readonly T[], i: number, what = 'item'): T {
  const item = items[i];
  assert.ok(item !== undefined, `expected ${what} ${i} of ${items.length}`);
  return item;
}
