import type { TokenUsage } from './token-usage';

/**
 * What Anthropic charges per million tokens, by model, as published on the pricing page
 * (https://platform.claude.com/docs/en/about-claude/pricing and each model's overview page).
 * Checked on 2026-11-23; a model missing here shows its tokens without a cost rather than a
 * guessed one. Cache writes are the 5-minute cache's price (the only one this agent asks for).
 *
 * Left out on purpose: Claude Haiku 5.5, whose price depends on each request's prompt length
 * (two bands), and the limited-availability Mythos models.
 */
export interface Price {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

const sonnet4: Price = { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 };
const opus45: Price = { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 };

const PRICES: Record<string, Price> = {
  'claude-fable-5-1': { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 0.25 },
  'claude-fable-5': { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 1 },
  'claude-opus-5-5': { input: 4, output: 20, cacheWrite: 5, cacheRead: 0.2 },
  'claude-opus-5': opus45,
  'claude-opus-4-8': opus45,
  'claude-opus-4-7': opus45,
  'claude-opus-4-6': opus45,
  'claude-opus-4-5': opus45,
  // Sonnet 5.5's cache reads went from $0.20 to $0.10 on 2026-10-07.
  'claude-sonnet-5-5': { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.1 },
  'claude-sonnet-5': { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 },
  'claude-sonnet-4-6': sonnet4,
  'claude-sonnet-4-5': sonnet4,
  'claude-sonnet-4': sonnet4,
  'claude-haiku-4-5': { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 },
};

/** The price of a model id, including dated ids (`claude-haiku-4-5-20251001`) and 1M-context ids (`…[1m]`). */
export function priceOf(model: string): Price | undefined {
  const base = model.replace(/\[1m\]$/, '');
  return PRICES[base] ?? PRICES[base.replace(/-\d{8}$/, '')];
}

/** US dollars, or undefined when the model's price is not known. */
export function costOf(model: string, usage: TokenUsage): number | undefined {
  const p = priceOf(model);
  if (!p) return undefined;
  return (usage.input * p.input + usage.output * p.output + usage.cacheRead * p.cacheRead + usage.cacheWrite * p.cacheWrite) / 1_000_000;
}
