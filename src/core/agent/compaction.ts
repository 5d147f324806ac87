import type { ModelClient } from './model-client';
import type Anthropic from '@anthropic-ai/sdk';
import { searchBlocksAsText } from '../tool-offer/search-blocks';

/** Compact when a request would fill more than this share of the model's input window. */
export const COMPACT_AT = 0.8;
/** How many of the person's newest messages (with everything after them) are kept word for word. */
const KEEP_TURNS = 2;
/** Of each tool result in the part being summarised, the model writing the summary sees this much. */
const RESULT_CHARS_FOR_SUMMARY = 2000;
/** Replace at least this many tokens, or a summary would not make room. */
const MIN_REPLACED_TOKENS = 1000;
/** Attached files carried over verbatim, at most this share of the window. */
const ATTACHMENT_SHARE = 0.2;

const SUMMARY_INSTRUCTION = [
  'The conversation above is getting too long for the context window. Write a summary that replaces it, so that the',
  'conversation can go on from the summary alone. Keep: what the person asked for and decided, facts and numbers found,',
  'files read or changed (with paths), commands and tool calls that mattered and their outcome, errors still open, and',
  'what was about to happen next. Leave out pleasantries and anything superseded. Write plain Markdown, at most about',
  '1,500 words. Do not call tools.',
].join(' ');

/** About four characters a token, as the API's own tokenizer counts English text and JSON; corrected by real usage where known. */
export function estimateTokens(value: unknown): number {
  return Math.ceil((typeof value === 'string' ? value.length : JSON.stringify(value).length) / 4);
}

export interface Compaction {
  /** The new conversation: the summary (and carried attachments), then the kept turns. */
  messages: Anthropic.MessageParam[];
  summary: string;
  /** How many messages the summary replaced. */
  replaced: number;
  tokensBefore: number;
  tokensAfter: number;
  /** What the summary request used. */
  usage: Anthropic.Usage;
}

/**
 * Where the kept part starts: the person's KEEP_TURNS-th newest message (a user message that
 * answers no tool call), so no tool call is separated from its result. Undefined when there is
 * nothing before it to summarise.
 */
function keptFrom(history: readonly Anthropic.MessageParam[], keepTurns = KEEP_TURNS): number | undefined {
  let seen = 0;
  for (let i = history.length - 1; i > 0; i--) {
    if (history[i]!.role === 'user' && !hasToolResults(history[i]!) && ++seen === keepTurns) return i;
  }
  // Fewer turns than that: the newest question alone is kept, if anything comes before it.
  for (let i = history.length - 1; i > 0; i--) if (history[i]!.role === 'user' && !hasToolResults(history[i]!)) return i;
  return undefined;
}

/**
 * Replaces the older part of a conversation with a summary the model writes. The summary request
 * sends the older part with long tool results shortened (the summary needs their gist, and the
 * request must fit the window the conversation has outgrown). Attached files in the replaced part
 * come along verbatim, within a share of the window.
 */
export async function compact(
  client: ModelClient,
  request: { model: string; system: string; window: number },
  history: readonly Anthropic.MessageParam[],
  signal: AbortSignal,
): Promise<Compaction | undefined> {
  const cut = keptFrom(history);
  if (cut === undefined) return undefined;
  const older = history.slice(0, cut);
  // A summary costs about this much itself: replacing less than that gains nothing (the tools and system prompt fill the window).
  if (estimateTokens(older) < MIN_REPLACED_TOKENS) return undefined;
  const kept = history.slice(cut);
  const reply = await client.messages.create(
    {
      model: request.model,
      max_tokens: 4096,
      system: request.system,
      // It carries no tools: searches that loaded some go as text.
      messages: [...searchBlocksAsText(older).map(shortened), { role: 'user', content: SUMMARY_INSTRUCTION } as Anthropic.MessageParam].reduce<
        Anthropic.MessageParam[]
      >(alternate, []),
    },
    { signal },
  );
  const summary = reply.content
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('\n')
    .trim();
  if (!summary) throw new Error('The model returned an empty summary.');
  const attachments = carriedAttachments(older, request.window * ATTACHMENT_SHARE);
  const head: Anthropic.ContentBlockParam[] = [
    {
      type: 'text',
      text: `<conversation_summary>\nThe earlier part of this conversation (${older.length} messages) was summarised to fit the context window:\n\n${summary}\n</conversation_summary>`,
    },
    ...attachments.map((text) => ({ type: 'text' as const, text })),
  ];
  // The kept part starts with the person's message: the summary joins it, so roles still alternate.
  const first = kept[0]!;
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: [...head, ...blocks(first)] }, ...kept.slice(1)];
  return { messages, summary, replaced: older.length, tokensBefore: estimateTokens(history), tokensAfter: estimateTokens(messages), usage: reply.usage };
}

function hasToolResults(m: Anthropic.MessageParam): boolean {
  return typeof m.content !== 'string' && m.content.some((b) => b.type === 'tool_result');
}

function blocks(m: Anthropic.MessageParam): Anthropic.ContentBlockParam[] {
  return typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
}

/** A message for the summary request: tool results shortened, thinking dropped (it is tied to its original request). */
function shortened(m: Anthropic.MessageParam): Anthropic.MessageParam {
  if (typeof m.content === 'string') return m;
  const content = m.content.flatMap((b): Anthropic.ContentBlockParam[] => {
    if (b.type === 'thinking' || b.type === 'redacted_thinking') return [];
    if (b.type === 'image' || b.type === 'document') return [{ type: 'text', text: `[${b.type}]` }];
    if (b.type !== 'tool_result') return [b];
    const text = typeof b.content === 'string' ? b.content : (b.content ?? []).map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
    const short =
      text.length > RESULT_CHARS_FOR_SUMMARY ? `${text.slice(0, RESULT_CHARS_FOR_SUMMARY)}… [${text.length - RESULT_CHARS_FOR_SUMMARY} more characters]` : text;
    return [{ type: 'tool_result', tool_use_id: b.tool_use_id, is_error: b.is_error, content: short }];
  });
  return { ...m, content: content.length > 0 ? content : [{ type: 'text', text: '(empty)' }] } as Anthropic.MessageParam;
}

/** Joins same-role neighbours (the instruction after a user message of tool results). */
function alternate(out: Anthropic.MessageParam[], m: Anthropic.MessageParam): Anthropic.MessageParam[] {
  const last = out[out.length - 1];
  if (last?.role === m.role) out[out.length - 1] = { ...last, content: [...blocks(last), ...blocks(m)] } as Anthropic.MessageParam;
  else out.push(m);
  return out;
}

/** The newest copy of each attached file in the replaced part, newest first, within `budgetTokens`. */
function carriedAttachments(older: readonly Anthropic.MessageParam[], budgetTokens: number): string[] {
  const byPath = new Map<string, string>();
  for (const m of older) {
    if (m.role !== 'user') continue;
    for (const b of blocks(m)) {
      const path = b.type === 'text' ? /^<attached_file path="([^"]*)"/.exec(b.text)?.[1] : undefined;
      if (path !== undefined && b.type === 'text') {
        byPath.delete(path);
        byPath.set(path, b.text);
      }
    }
  }
  const out: string[] = [];
  let budget = budgetTokens;
  for (const text of [...byPath.values()].reverse()) {
    const cost = estimateTokens(text);
    if (cost > budget) continue;
    budget -= cost;
    out.push(text);
  }
  return out;
}
