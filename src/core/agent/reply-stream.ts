import type Anthropic from '@anthropic-ai/sdk';

export interface StreamedReply {
  message: Anthropic.Message;
  /** Tool calls whose input was not one JSON object, by tool_use id: what was wrong. Their `input` in `message` is `{}`. */
  badInputs: Map<string, string>;
}

type Block = Anthropic.ContentBlock & { input?: unknown; text?: string; thinking?: string; signature?: string; citations?: unknown[] | null };

/** How much of a broken input the model is shown back, so it can see what went wrong without echoing megabytes. */
const QUOTE_CHARS = 300;

/**
 * Builds the reply from the raw stream events (the text as it comes through `onText`).
 *
 * Not the SDK's MessageStream: its accumulator runs every tool input through a partial-JSON
 * repairer, so input cut off by max_tokens comes back as a plausible smaller object, and input that
 * does not parse throws out of the stream, losing the whole reply (text, the other calls and the
 * ids the API wants answered; measured with @anthropic-ai/sdk 1.12). Here each tool input is
 * parsed strictly once its block ends, and a bad one is reported per call so the agent can answer
 * that call with an error and go on.
 */
export async function readReply(
  events: AsyncIterable<Anthropic.RawMessageStreamEvent>,
  onText: (index: number, text: string) => void,
  /** A block starts: thinking or a tool call, which stream nothing the person sees until they end. */
  onBlock?: (block: Anthropic.RawContentBlockStartEvent['content_block']) => void,
): Promise<StreamedReply> {
  let message: Anthropic.Message | undefined;
  const content: Block[] = [];
  const json = new Map<number, string>();
  const badInputs = new Map<string, string>();
  let stopped = false;
  const finish = (index: number): void => {
    const raw = json.get(index);
    const block = content[index];
    if (raw === undefined || !block) return;
    json.delete(index);
    const parsed = parseInput(raw);
    block.input = parsed.ok ? parsed.value : {};
    if (!parsed.ok && block.type === 'tool_use') badInputs.set(block.id, parsed.problem);
  };
  for await (const event of events) {
    switch (event.type) {
      case 'message_start':
        message = { ...event.message, content: [] };
        break;
      case 'content_block_start':
        content[event.index] = { ...event.content_block } as Block;
        onBlock?.(event.content_block);
        if (event.content_block.type === 'tool_use' || event.content_block.type === 'server_tool_use') json.set(event.index, '');
        break;
      case 'content_block_delta': {
        const block = content[event.index];
        if (!block) break;
        const d = event.delta;
        if (d.type === 'text_delta') {
          block.text = (block.text ?? '') + d.text;
          onText(event.index, d.text);
        } else if (d.type === 'input_json_delta') json.set(event.index, (json.get(event.index) ?? '') + d.partial_json);
        else if (d.type === 'citations_delta') block.citations = [...(block.citations ?? []), d.citation];
        else if (d.type === 'thinking_delta') block.thinking = (block.thinking ?? '') + d.thinking;
        else if (d.type === 'signature_delta') block.signature = d.signature;
        break;
      }
      case 'content_block_stop':
        finish(event.index);
        break;
      case 'message_delta':
        if (!message) break;
        for (const [key, value] of Object.entries(event.delta)) if (value !== undefined) (message as unknown as Record<string, unknown>)[key] = value;
        message.usage = { ...message.usage, ...(definedOnly(event.usage) as Partial<Anthropic.Usage>) };
        break;
      case 'message_stop':
        stopped = true;
        break;
    }
  }
  // The SDK's raw stream ends quietly when its request is aborted; the caller checks its signal.
  if (!message || !stopped) throw new Error('The reply from the Anthropic API ended before it was complete. Try again.');
  for (const index of [...json.keys()]) finish(index);
  message.content = content.filter((b) => b !== undefined) as Anthropic.ContentBlock[];
  return { message, badInputs };
}

function parseInput(raw: string): { ok: true; value: Record<string, unknown> } | { ok: false; problem: string } {
  // a tool without parameters may stream no input at all
  if (raw.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    return { ok: false, problem: `${(err as Error).message}; it began: ${quote(raw)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: `it is ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}, not an object: ${quote(raw)}` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

function quote(raw: string): string {
  return raw.length > QUOTE_CHARS ? `${raw.slice(0, QUOTE_CHARS)}… (${raw.length} characters)` : raw;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;
}
