/**
 * Token counts and costs as the chat, the Chats view and the CLI print them (one wording
 * everywhere): "12.3k in (9.8k from cache, 2.1k to cache) · 410 out · $0.0213", where "in" is every
 * input token the requests carried, "from cache" the part read from the prompt cache and "to cache"
 * the part written to it (billed a little over the input price).
 */
export interface UsageNumbers {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  costUsd?: number;
}

export function tokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(n < 10_000_000 ? 2 : 1)}M`;
}

function dollars(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  if (usd < 1) return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}

/** `unpriced`: turns whose model has no known price; the cost is then "at least". */
export function usageLine(u: UsageNumbers, unpriced = 0): string {
  const cached = [u.cacheRead ? `${tokens(u.cacheRead)} from cache` : '', u.cacheWrite ? `${tokens(u.cacheWrite)} to cache` : ''].filter(Boolean);
  const parts = [`${tokens(u.input + u.cacheRead + u.cacheWrite)} in${cached.length ? ` (${cached.join(', ')})` : ''}`];
  parts.push(`${tokens(u.output)} out`);
  const cost = costText(u, unpriced);
  if (cost) parts.push(cost);
  return parts.join(' · ');
}

/** The short form for a footer: "10.4k tokens · $0.012". */
export function usageTotal(u: UsageNumbers, unpriced = 0): string {
  const cost = costText(u, unpriced);
  return `${tokens(u.input + u.cacheRead + u.cacheWrite + u.output)} tokens${cost ? ` · ${cost}` : ''}`;
}

/** Every count spelled out, one per line (for tooltips). */
export function usageDetail(u: UsageNumbers, unpriced = 0): string {
  const lines = [
    `input at full price: ${u.input.toLocaleString()}`,
    `input read from the cache: ${u.cacheRead.toLocaleString()}`,
    `input written to the cache: ${u.cacheWrite.toLocaleString()}`,
    `output: ${u.output.toLocaleString()}`,
  ];
  lines.push(
    u.costUsd === undefined
      ? 'cost: unknown for this model'
      : `cost: ${costText(u, unpriced)}${unpriced ? ` (${unpriced} turn${unpriced === 1 ? '' : 's'} on a model without a known price)` : ''}`,
  );
  return lines.join('\n');
}

function costText(u: UsageNumbers, unpriced: number): string | undefined {
  if (u.costUsd === undefined) return undefined;
  return unpriced > 0 ? `≥ ${dollars(u.costUsd)}` : dollars(u.costUsd);
}
