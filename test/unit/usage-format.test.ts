import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costOf, priceOf } from '../../src/core/usage/prices';
import { tokens, usageLine, usageTotal } from '../../src/common/usage-format';

test('token counts read short: 999, 1.2k, 12k, 1.50M', () => {
  assert.deepEqual([999, 1234, 12_345, 1_500_000].map(tokens), ['999', '1.2k', '12k', '1.50M']);
});

test("a turn's line counts every input token and says how much came from the cache", () => {
  assert.equal(
    usageLine({ input: 100, cacheRead: 9000, cacheWrite: 900, output: 50, costUsd: 0.0123 }),
    '10k in (9.0k from cache, 900 to cache) · 50 out · $0.012',
  );
  assert.equal(usageLine({ input: 100, cacheRead: 0, cacheWrite: 900, output: 50 }), '1.0k in (900 to cache) · 50 out');
  assert.equal(usageLine({ input: 10, cacheRead: 0, cacheWrite: 0, output: 5 }), '10 in · 5 out', 'no price: tokens only');
  assert.equal(
    usageTotal({ input: 10, cacheRead: 0, cacheWrite: 0, output: 5, costUsd: 0.5 }, 2),
    '15 tokens · ≥ $0.500',
    'turns without a price make the total a lower bound',
  );
});

test('prices: dated and 1M-context ids find their model; an unknown model has no cost', () => {
  assert.equal(priceOf('claude-haiku-4-5-20251001'), priceOf('claude-haiku-4-5'));
  assert.equal(priceOf('claude-sonnet-5-5[1m]'), priceOf('claude-sonnet-5-5'));
  assert.equal(costOf('claude-sonnet-5-5', { input: 1_000_000, output: 1_000_000, cacheRead: 1_000_000, cacheWrite: 1_000_000 }), 2 + 10 + 0.1 + 2.5);
  assert.equal(costOf('claude-made-up', { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }), undefined);
});
