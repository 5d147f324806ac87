import { promptTokens, type TokenUsage } from '../../src/core/usage/token-usage';

/** Every token a session's model calls used, input (however billed) and output: its "tokens" in lists. */
export function totalTokens(u: TokenUsage): number {
  return promptTokens(u) + u.output;
}
