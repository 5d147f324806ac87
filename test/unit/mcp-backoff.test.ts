import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RestartBudget } from '../../src/core/mcp/hub/backoff';

describe('RestartBudget', () => {
  test('doubles the delay up to the cap and gives up after maxRestarts in the window', () => {
    let now = 0;
    const budget = new RestartBudget({ baseDelayMs: 500, maxDelayMs: 1500, maxRestarts: 3, windowMs: 60_000 }, () => now);
    assert.deepEqual([budget.next(), budget.next(), budget.next(), budget.next()], [500, 1000, 1500, undefined]);
    assert.equal(budget.recent, 3);
    now = 60_001;
    assert.equal(budget.recent, 0);
    assert.equal(budget.next(), 500);
  });

  test('reset forgets earlier restarts', () => {
    const budget = new RestartBudget({ maxRestarts: 1 }, () => 0);
    assert.equal(budget.next(), 500);
    assert.equal(budget.next(), undefined);
    budget.reset();
    assert.equal(budget.next(), 500);
  });
});
