import type Anthropic from '@anthropic-ai/sdk';

/** Tokens one request or a sum of them used, as the API bills them. */
export interface TokenUsage {
  /** Input billed at full price: what was neither read from nor written to the cache. */
  input: number;
  output: number;
  /** Input read from the prompt cache (billed at a tenth of the input price or less). */
  cacheRead: number;
  /** Input written to the prompt cache (billed at 1.25 × the input price for the 5-minute cache). */
  cacheWrite: number;
}

export const NO_USAGE: TokenUsage = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

/** The usage a reply reports; fields the API leaves out or sets to null count as zero. */
export function usageOf(usage: Partial<Anthropic.Usage> | undefined): TokenUsage {
  return {
    input: usage?.input_tokens ?? 0,
    output: usage?.output_tokens ?? 0,
    cacheRead: usage?.cache_read_input_tokens ?? 0,
    cacheWrite: usage?.cache_creation_input_tokens ?? 0,
  };
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return { input: a.input + b.input, output: a.output + b.output, cacheRead: a.cacheRead + b.cacheRead, cacheWrite: a.cacheWrite + b.cacheWrite };
}

/** Every input token the request carried, however it was billed: what counts against the context window. */
export function promptTokens(u: TokenUsage): number {
  return u.input + u.cacheRead + u.cacheWrite;
}
