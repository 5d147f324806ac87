import type Anthropic from '@anthropic-ai/sdk';

type Block = Anthropic.ContentBlockParam & { cache_control?: Anthropic.CacheControlEphemeral | null };

const EPHEMERAL: Anthropic.CacheControlEphemeral = { type: 'ephemeral' };

export interface CachedRequest {
  tools: Anthropic.ToolUnion[];
  system: Anthropic.TextBlockParam[];
  messages: Anthropic.MessageParam[];
}

/**
 * Marks a request for prompt caching with the API's four breakpoints: the last tool (the tool
 * list), the system prompt (tools + system: the stable prefix), the message the previous call
 * marked last (so this call reads everything up to it from the cache, however many blocks the
 * reply and its tool results added), and the newest message (written for the next call to read).
 *
 * In a conversation where roles alternate, the previous call's newest message is the one three
 * from the end: it was followed by the model's reply and by the results or message answering it.
 * The history is not changed: marked messages and blocks are copies. `cacheAt` is the tool that ends the
 * tools' stable part (tool-offer.ts: the deferred tools come after it); by default the last.
 */
export function withCacheBreakpoints(
  tools: Anthropic.ToolUnion[],
  system: string,
  messages: readonly Anthropic.MessageParam[],
  cacheAt = tools.length - 1,
): CachedRequest {
  const marked = messages.slice();
  for (const index of new Set([messages.length - 3, messages.length - 1])) {
    if (index >= 0) marked[index] = markLastBlock(messages[index]!);
  }
  return {
    tools: tools.map((t, i) => (i === cacheAt ? { ...t, cache_control: EPHEMERAL } : t)),
    system: [{ type: 'text', text: system, cache_control: EPHEMERAL }],
    messages: marked,
  };
}

/** The same request without any breakpoint: nothing is cached (for comparison, and for APIs that refuse them). */
export function withoutCaching(tools: Anthropic.ToolUnion[], system: string, messages: readonly Anthropic.MessageParam[]): CachedRequest {
  return { tools, system: [{ type: 'text', text: system }], messages: messages.slice() };
}

/**
 * A copy of the message with a breakpoint on its last block that can carry one: thinking blocks
 * cannot, nor can empty text. A message with no such block is left as it is.
 */
function markLastBlock(message: Anthropic.MessageParam): Anthropic.MessageParam {
  const blocks: Block[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content as Block[]);
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i]!;
    if (!cacheable(block)) continue;
    const copy = blocks.slice();
    copy[i] = { ...block, cache_control: EPHEMERAL } as Block;
    return { ...message, content: copy } as Anthropic.MessageParam;
  }
  return message;
}

function cacheable(block: Block): boolean {
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return false;
  if (block.type === 'text') return block.text.length > 0;
  return true;
}
