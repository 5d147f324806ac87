import type Anthropic from '@anthropic-ai/sdk';

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
 * Makes a restored conversation valid for the API: joins same-role neighbours and answers tool
 * calls left without results (the window closed mid-call) with an error result. (Results are capped
 * when written; a chat from before that is migrated once: chat-format.ts.)
 */
export function repairHistory(messages: readonly Anthropic.MessageParam[]): Anthropic.MessageParam[] {
  const merged = mergeConsecutive(messages);
  const out: Anthropic.MessageParam[] = [];
  merged.forEach((message, i) => {
    out.push(message);
    if (message.role !== 'assistant' || typeof message.content === 'string') return;
    const uses = message.content.filter((b): b is Anthropic.ToolUseBlockParam => b.type === 'tool_use');
    if (uses.length === 0) return;
    const next = merged[i + 1];
    const answered = new Set(
      (next ? blocks(next) : []).flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])),
    );
    const missing: Anthropic.ToolResultBlockParam[] = uses
      .filter((u) => !answered.has(u.id))
      .map((u) => ({ type: 'tool_result', tool_use_id: u.id, is_error: true, content: 'Interrupted: the editor closed before this call finished.' }));
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

