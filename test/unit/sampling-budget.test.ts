// What "Always for this server" allows a server's sampling (src/core/mcp/sampling-budget.ts): a token budget,
// checked before each request with the output limits of the running ones held, after which it asks again.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SamplingBudgets } from '../../src/core/sampling/sampling-budget';

describe('a sampling budget after "always"', () => {
  test('no budget, no running without asking; a granted one lets requests run while their output limit fits', () => {
    let changes = 0;
    const b = new SamplingBudgets(1_000, () => changes++);
    assert.equal(b.hold('s', 10), false, 'never granted');
    b.grant('s');
    assert.equal(b.hold('s', 600), true);
    assert.equal(b.hold('s', 600), false, 'the running one holds its 600');
    b.settle('s', 600, 250);
    assert.deepEqual(b.use('s'), { server: 's', used: 250, limit: 1_000 });
    assert.equal(b.hold('s', 700), true);
    b.settle('s', 700, 800);
    assert.equal(b.hold('s', 1), false, 'spent: 1,050 of 1,000');
    assert.deepEqual(b.all(), [{ server: 's', used: 1_050, limit: 1_000 }]);
    b.grant('s');
    assert.deepEqual(b.use('s'), { server: 's', used: 0, limit: 1_000 }, '"always" again starts a new budget');
    b.forget('s');
    assert.equal(b.use('s'), undefined);
    assert.equal(changes, 5);
  });

  test('what a server without a budget uses is not counted anywhere', () => {
    const b = new SamplingBudgets(100);
    b.settle('other', 0, 50);
    assert.deepEqual(b.all(), []);
  });
});
