// MCP's sampling/createMessage in and out of the Anthropic Messages API (spec 2025-11-25, tools included).
import type Anthropic from '@anthropic-ai/sdk';
import {
  ProtocolErrorCode,
  ProtocolError,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type CreateMessageResultWithTools,
  type SamplingMessage,
  type SamplingMessageContentBlock,
} from '@modelcontextprotocol/client';
import { isImageMime } from '../../common/image-types';

type Block = Anthropic.ContentBlockParam;

/** The Messages API request for a sampling request, on `model`, its reply at most `maxOutput` tokens. */
export function toAnthropicRequest(
  params: CreateMessageRequestParams,
  model: string,
  maxOutput: number | undefined,
): Anthropic.MessageCreateParamsNonStreaming {
  const body: Anthropic.MessageCreateParamsNonStreaming = {
    model,
    max_tokens: maxOutput ? Math.min(params.maxTokens, maxOutput) : params.maxTokens,
    messages: params.messages.map(toMessage),
  };
  if (params.systemPrompt) body.system = params.systemPrompt;
  // `temperature` is left out: the Messages API of this SDK takes none (the spec makes it advisory).
  if (params.stopSequences?.length) body.stop_sequences = params.stopSequences;
  if (params.tools?.length) {
    body.tools = params.tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: t.inputSchema as Anthropic.Tool.InputSchema,
    }));
    const mode = params.toolChoice?.mode;
    if (mode === 'required') body.tool_choice = { type: 'any' };
    else if (mode === 'none') body.tool_choice = { type: 'none' };
    else if (mode === 'auto') body.tool_choice = { type: 'auto' };
  }
  return body;
}

/** The sampling result for an API reply: one content block, or (when the request offered tools) a list. */
export function fromAnthropicMessage(message: Anthropic.Message, withTools: boolean): CreateMessageResult | CreateMessageResultWithTools {
  const stopReason = STOP_REASONS[message.stop_reason ?? ''] ?? message.stop_reason ?? undefined;
  const blocks: SamplingMessageContentBlock[] = [];
  for (const b of message.content) {
    if (b.type === 'text') blocks.push({ type: 'text', text: b.text });
    else if (b.type === 'tool_use' && withTools) blocks.push({ type: 'tool_use', id: b.id, name: b.name, input: (b.input ?? {}) as Record<string, unknown> });
  }
  if (withTools) return { role: 'assistant', model: message.model, stopReason, content: blocks };
  const text = blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
  return { role: 'assistant', model: message.model, stopReason, content: { type: 'text', text } };
}

const STOP_REASONS: Record<string, string> = {
  end_turn: 'endTurn',
  stop_sequence: 'stopSequence',
  max_tokens: 'maxTokens',
  tool_use: 'toolUse',
  refusal: 'refusal',
};

function toMessage(m: SamplingMessage): Anthropic.MessageParam {
  const content = Array.isArray(m.content) ? m.content : [m.content];
  return { role: m.role, content: content.map(toBlock) };
}

function toBlock(c: SamplingMessageContentBlock): Block {
  switch (c.type) {
    case 'text':
      return { type: 'text', text: c.text };
    case 'image':
      if (!isImageMime(c.mimeType)) throw invalid(`an image of type ${c.mimeType} (the model takes JPEG, PNG, GIF and WebP)`);
      return { type: 'image', source: { type: 'base64', media_type: c.mimeType as 'image/png', data: c.data } };
    case 'tool_use':
      return { type: 'tool_use', id: c.id, name: c.name, input: c.input };
    case 'tool_result':
      return {
        type: 'tool_result',
        tool_use_id: c.toolUseId,
        is_error: c.isError,
        content: c.content.flatMap((inner): Array<Anthropic.TextBlockParam | Anthropic.ImageBlockParam> => {
          if (inner.type === 'text') return [{ type: 'text', text: inner.text }];
          if (inner.type === 'image' && isImageMime(inner.mimeType)) {
            return [{ type: 'image', source: { type: 'base64', media_type: inner.mimeType as 'image/png', data: inner.data } }];
          }
          return [{ type: 'text', text: `[${inner.type} content left out]` }];
        }),
      };
    default:
      throw invalid(`${c.type} content (the model takes text, images, tool uses and tool results)`);
  }
}

function invalid(what: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `this host cannot sample with ${what}`);
}
