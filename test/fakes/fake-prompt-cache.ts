/**
 * The fake API's prompt cache, modelled on the real one closely enough that caching is measured,
 * not assumed: the prompt is the sequence tools → system → messages, cut into blocks; a block with
 * `cache_control` is a breakpoint; a request reads the longest cached prefix that ends at a
 * breakpoint or within the 20 blocks before one, and writes the prefixes at each breakpoint.
 * Prefixes shorter than `minTokens` are not cached, as on the real API.
 */
import { createHash, type Hash } from 'node:crypto';
import type { MessagesBody } from './anthropic-api';

const LOOKBACK_BLOCKS = 20;

export interface CacheUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export class FakePromptCache {
  private readonly prefixes = new Set<string>();

  constructor(public minTokens = 1024) {}

  clear(): void {
    this.prefixes.clear();
  }

  /** Bills one request: what was read from the cache, what was written to it, the rest. */
  bill(body: MessagesBody): CacheUsage {
    const blocks = promptBlocks(body);
    const hashes: string[] = [];
    const tokens: number[] = [];
    let hash: Hash = createHash('sha256').update(body.model);
    let total = 0;
    for (const block of blocks) {
      hash = hash.copy().update(block.text);
      hashes.push(hash.copy().digest('hex'));
      total += tokenCount(block.text);
      tokens.push(total);
    }
    const breakpoints = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    let hit = -1;
    for (const b of breakpoints) {
      for (let j = b; j >= Math.max(0, b - LOOKBACK_BLOCKS + 1); j--) {
        if (j > hit && this.prefixes.has(hashes[j]!)) hit = j;
      }
    }
    const read = hit >= 0 ? tokens[hit]! : 0;
    let written = read;
    for (const b of breakpoints) {
      if (tokens[b]! < this.minTokens) continue;
      this.prefixes.add(hashes[b]!);
      if (b > hit) written = Math.max(written, tokens[b]!);
    }
    return { cache_read_input_tokens: read, cache_creation_input_tokens: written - read, input_tokens: total - written };
  }
}

/** The real API counts roughly 4 characters a token; the fake does exactly that, so tests can predict it. */
export function tokenCount(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Every token a request carries (what counts against a model's window). */
export function promptTokenCount(body: Pick<MessagesBody, 'tools' | 'system' | 'messages'>): number {
  return promptBlocks(body).reduce((n, b) => n + tokenCount(b.text), 0);
}

interface PromptBlock {
  text: string;
  breakpoint: boolean;
}

function promptBlocks(body: Pick<MessagesBody, 'tools' | 'system' | 'messages'>): PromptBlock[] {
  const out: PromptBlock[] = [];
  const add = (value: unknown): void => {
    const { cache_control, ...rest } = (value ?? {}) as Record<string, unknown>;
    out.push({ text: JSON.stringify(rest), breakpoint: cache_control !== undefined && cache_control !== null });
  };
  for (const tool of body.tools ?? []) add(tool);
  if (typeof body.system === 'string') add({ type: 'text', text: body.system });
  else for (const block of body.system ?? []) add(block);
  for (const message of body.messages) {
    if (typeof message.content === 'string') add({ role: message.role, type: 'text', text: message.content });
    else for (const block of message.content) add({ role: message.role, ...block });
  }
  return out;
}
