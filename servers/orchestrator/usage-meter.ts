import type Anthropic from '@anthropic-ai/sdk';

export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export function noUsage(): TokenUsage {
  return { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
}

export function addUsage(a: TokenUsage, b: Partial<TokenUsage> | null | undefined): TokenUsage {
  return {
    input_tokens: a.input_tokens + (b?.input_tokens ?? 0),
    output_tokens: a.output_tokens + (b?.output_tokens ?? 0),
    cache_read_input_tokens: a.cache_read_input_tokens + (b?.cache_read_input_tokens ?? 0),
    cache_creation_input_tokens: a.cache_creation_input_tokens + (b?.cache_creation_input_tokens ?? 0),
  };
}

export interface MeterHooks {
  /** A model request is about to be sent; it waits for what this returns (e.g. the transcript reaching the disk). */
  onCall: () => void | Promise<void>;
  /** One reply's usage, once its stream ends (or stops). */
  onUsage: (usage: TokenUsage) => void;
}

type Create = Anthropic['messages']['create'];

/**
 * The same client, with every streamed reply's token usage and every model call reported. The
 * agent loop (src/core/agent) reads the stream itself and keeps no account of usage, so the
 * orchestrator counts it here, on the way through, instead of changing the loop.
 */
export function meteredClient(client: Anthropic, hooks: MeterHooks): Anthropic {
  const create = (async (body: Parameters<Create>[0], options?: Parameters<Create>[1]) => {
    await hooks.onCall();
    const reply: unknown = await client.messages.create(body, options);
    if (isStream(reply)) return tap(reply, hooks.onUsage);
    hooks.onUsage(usageOf((reply as Anthropic.Message).usage));
    return reply;
  }) as unknown as Create;
  const messages = Object.create(client.messages, { create: { value: create } }) as Anthropic['messages'];
  return Object.create(client, { messages: { value: messages } }) as Anthropic;
}

function isStream(value: unknown): value is AsyncIterable<Anthropic.RawMessageStreamEvent> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

async function* tap(
  stream: AsyncIterable<Anthropic.RawMessageStreamEvent>,
  onUsage: (usage: TokenUsage) => void,
): AsyncGenerator<Anthropic.RawMessageStreamEvent> {
  let usage = noUsage();
  try {
    for await (const event of stream) {
      if (event.type === 'message_start') usage = usageOf(event.message.usage);
      else if (event.type === 'message_delta') {
        // message_delta carries the running totals: the last one wins, field by field.
        const u = event.usage as Partial<TokenUsage> & { output_tokens?: number | null };
        usage = {
          input_tokens: u.input_tokens ?? usage.input_tokens,
          output_tokens: u.output_tokens ?? usage.output_tokens,
          cache_read_input_tokens: u.cache_read_input_tokens ?? usage.cache_read_input_tokens,
          cache_creation_input_tokens: u.cache_creation_input_tokens ?? usage.cache_creation_input_tokens,
        };
      }
      yield event;
    }
  } finally {
    onUsage(usage);
  }
}

export function usageOf(u: Partial<Record<keyof TokenUsage, number | null>> | null | undefined): TokenUsage {
  return {
    input_tokens: u?.input_tokens ?? 0,
    output_tokens: u?.output_tokens ?? 0,
    cache_read_input_tokens: u?.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: u?.cache_creation_input_tokens ?? 0,
  };
}

/** Input (cached or not) plus output: what "tokens" means in a session's summary. */
export function totalTokens(u: TokenUsage): number {
  return u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.output_tokens;
}
