/**
 * Token counts and costs as the chat, the Chats view and the CLI print them (one wording
 * everywhere): "12.3k in · 410 out · 98.1k cached · 2.0k to cache · $0.0213".
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

export function dollars(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  if (usd < 1) return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}

/** `unpriced`: turns whose model has no known price; the cost is then "at least". */
export function usageLine(u: UsageNumbers, unpriced = 0): string {
  const parts = [`${tokens(u.input)} in`, `${tokens(u.output)} out`];
  if (u.cacheRead) parts.push(`${tokens(u.cacheRead)} cached`);
  if (u.cacheWrite) parts.push(`${tokens(u.cacheWrite)} to cache`);
  if (u.costUsd !== undefined) parts.push(unpriced > 0 ? `≥ ${dollars(u.costUsd)}` : dollars(u.costUsd));
  return parts.join(' · ');
}
