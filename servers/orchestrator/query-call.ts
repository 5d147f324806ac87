import type Anthropic from '@anthropic-ai/sdk';
import { describeApiError } from '../../src/core/agent/api-errors';
import { readReply } from '../../src/core/agent/reply-stream';
import { KEY_HINT, type QueryConfig } from './config';
import { usageOf, type TokenUsage } from '../../src/core/usage/token-usage';

export type QueryOutcome = { ok: true; answer: string; usage: TokenUsage } | { ok: false; message: string };

/** One `query` request: the conversation so far plus the prompt, streamed, per the CLAUDE_* settings. */
export async function askClaude(client: Anthropic, config: QueryConfig, messages: Anthropic.MessageParam[], signal: AbortSignal): Promise<QueryOutcome> {
  try {
    const stream = await client.messages.create(
      {
        model: config.model,
        max_tokens: config.maxTokens,
        stream: true,
        ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
        system: config.systemPrompt,
        messages,
      },
      { signal },
    );
    const { message } = await readReply(stream, () => undefined);
    const answer = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
    return { ok: true, answer, usage: usageOf(message.usage) };
  } catch (err) {
    if (signal.aborted) return { ok: false, message: 'query: cancelled' };
    return { ok: false, message: `query failed: ${describeApiError(err, KEY_HINT)}` };
  }
}
