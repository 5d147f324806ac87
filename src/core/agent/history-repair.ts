import type Anthropic from '@anthropic-ai/sdk';

/** Closes a message of the person that got no reply (its turn was stopped or failed), so turns are never merged. */
const NO_REPLY =
  '[No reply to the message above: its turn was stopped by the person or its request failed. Nothing more is being done for it; answer the message that follows, and carry out the one above only if asked again.]';
export const NO_REPLY_MESSAGE: Anthropic.MessageParam = { role: 'assistant', content: [{ type: 'text', text: NO_REPLY }] };

/** A call with no result in a restored chat: the program ended before it finished, or its result could not be saved. */
const INTERRUPTED_CALL = 'Interrupted: no result of this call was saved (the program ended before it finished, or the chat could not be written).';

/** Joins consecutive messages of the same role, as the API expects roles to alternate. */
export function mergeConsecutive(messages: readonly Anthropic.MessageParam[]): Anthropic.MessageParam[] {
  const out: Anthropic.MessageParam[] = [];
  for (const message of messages) {
    const last = out[out.length - 1];
    if (last && last.role === message.role) out[out.length - 1] = { ...last, content: [...blocks(last), ...blocks(message)] } as Anthropic.MessageParam;
    else out.push(message);
  }
  return out;
}

/**
 * Makes a restored conversation valid for the API: closes a message of the person that got no reply
 * (NO_REPLY), joins the replies of one turn (a paused reply goes on in a new message), and answers tool
 * calls left without results (the program ended mid-call, a write failed) with an error result. (Results are capped
 * when written; a chat from before that is migrated once: chat-format.ts.)
 */
export function repairHistory(messages: readonly Anthropic.MessageParam[]): Anthropic.MessageParam[] {
  // Two messages of the person in a row are two turns (an older version joined them): the first got no reply.
  const separated = messages.flatMap((m, i) => (m.role === 'user' && messages[i - 1]?.role === 'user' ? [NO_REPLY_MESSAGE, m] : [m]));
  const merged = mergeConsecutive(separated);
  const out: Anthropic.MessageParam[] = [];
  merged.forEach((message, i) => {
    out.push(message);
    if (message.role !== 'assistant' || typeof message.content === 'string') return;
    const uses = message.content.filter((b): b is Anthropic.ToolUseBlockParam => b.type === 'tool_use');
    if (uses.length === 0) return;
    const next = merged[i + 1];
    const answered = new Set((next ? blocks(next) : []).flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])));
    const missing: Anthropic.ToolResultBlockParam[] = uses
      .filter((u) => !answered.has(u.id))
      .map((u) => ({ type: 'tool_result', tool_use_id: u.id, is_error: true, content: INTERRUPTED_CALL }));
    if (missing.length === 0) return;
    if (next?.role === 'user') {
      merged[i + 1] = { role: 'user', content: [...missing, ...blocks(next)] };
    } else out.push({ role: 'user', content: missing });
  });
  return out;
}

export function blocks(m: Anthropic.MessageParam): Anthropic.ContentBlockParam[] {
  return typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
}
