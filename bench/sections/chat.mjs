// Conversations: prompt caching over a 20-turn chat, opening a 1,000-message chat, Enter to request.
import { join } from 'node:path';
import { ROOT } from '../lib/setup.mjs';
import { loadDriver } from '../lib/driver.mjs';
import { fmtBytes, fmtMs, fmtRatio, median, percentile, ratio } from '../lib/stats.mjs';

export async function benchChat() {
  const driver = await loadDriver('bench/chat-driver.ts');
  const { cached, uncached, tools } = await driver.benchCaching(join(ROOT, 'dist'));
  const open = await driver.benchOpenChat(1000);
  const enter = await driver.benchEnterToRequest(30);
  const pct = (x) => `${(x * 100).toFixed(1)} %`;
  const rows = [
    [
      'input billed at full price (tokens, 80 calls)',
      String(cached.fullPriceInput),
      String(uncached.fullPriceInput),
      fmtRatio(ratio(cached.fullPriceInput, uncached.fullPriceInput)),
      '< 0.20x',
    ],
    ['input read from the cache, calls 2..80', pct(cached.readShareAfterFirst), pct(uncached.readShareAfterFirst), '-', '≥ 90 %'],
    ['cost at Sonnet 5.5 prices', `$${cached.costUsd.toFixed(4)}`, `$${uncached.costUsd.toFixed(4)}`, fmtRatio(ratio(cached.costUsd, uncached.costUsd)), '-'],
    ['open a 1,000-message chat from disk', fmtMs(open.ms), '-', '-', '-'],
    ['  its heap', fmtBytes(open.heapBytes), '-', '-', `files ${fmtBytes(open.fileBytes)}`],
    ['Enter → request at the API (median / p95)', `${fmtMs(median(enter))} / ${fmtMs(percentile(enter, 95))}`, '-', '-', '-'],
  ];
  return {
    title: 'Conversations: prompt caching, opening a long chat, Enter to request',
    header: ['measure', 'ours (cached)', 'baseline (no cache breakpoints)', 'ratio', 'aim'],
    rows,
    notes: [
      `20 turns × (3 list_directory calls + an answer) = ${cached.calls} model calls through ChatSession, the real hub and bundled servers (${tools} tools), against the fake API's prompt cache (20-block lookback, 1,024-token minimum)`,
      'baseline = the same chat with promptCaching off (no cache_control anywhere)',
      'heap is measured without --expose-gc unless the bench runs with it; read it as an order of magnitude',
    ],
    data: { cached, uncached, open, enterMs: enter },
  };
}
