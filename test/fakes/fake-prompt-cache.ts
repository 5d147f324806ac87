/**
 * The fake API's prompt cache, modelled on the real one closely enough that caching is measured,
 * not assumed: the prompt is the sequence tools → system → messages, cut into blocks; a block with
 * `cache_control` is a breakpoint; a request reads the longest cached prefix that ends at a
 * breakpoint or within the 20 blocks before one, and writes the prefixes at each breakpoint.
 * Prefixes shorter than `minTokens` are not cached, as on the real API. Deferred tools (tool search)
 * count where a reference loads them, not in the tools (promptBlocks).
 */
import { createHash, type Hash } from 'node:crypto';
import type { MessagesBody } from './anthropic-api';
import { referencesIn } from './fake-tool-search';

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

/**
 * The prompt as the API builds it: tools sent in full, the system prompt, then the messages. A deferred
 * tool is not there until a `tool_reference` names it; then its definition stands right after that
 * reference, in the conversation, so what came before is unchanged.
 */
function promptBlocks(body: Pick<MessagesBody, 'tools' | 'system' | 'messages'>): PromptBlock[] {
  const out: PromptBlock[] = [];
  const add = (value: unknown): void => {
    const { cache_control, ...rest } = (value ?? {}) as Record<string, unknown>;
    out.push({ text: JSON.stringify(rest), breakpoint: cache_control !== undefined && cache_control !== null });
  };
  const definitions = new Map((body.tools ?? []).map((t) => [t.name, t]));
  const expand = (block: Record<string, unknown>): void => {
    for (const name of referencesIn(block)) {
      const { defer_loading: _d, cache_control: _c, ...definition } = definitions.get(name) ?? { name };
      add(definition);
    }
  };
  for (const tool of body.tools ?? []) if (!tool.defer_loading) add(tool);
  if (typeof body.system === 'string') add({ type: 'text', text: body.system });
  else for (const block of body.system ?? []) add(block);
  for (const message of body.messages) {
    if (typeof message.content === 'string') add({ role: message.role, type: 'text', text: message.content });
    else
      for (const block of message.content) {
        add({ role: message.role, ...block });
        expand(block);
      }
  }
  return out;
}
