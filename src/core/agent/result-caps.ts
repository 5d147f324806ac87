import type Anthropic from '@anthropic-ai/sdk';
import { formatBytes } from '../../node/byte-size';
import type { ToolContent } from '../../common/protocol';
import { countLines, headOf, tailOf, utf8Bytes } from './text-cut';

/**
 * How much of tool output reaches the model. Whatever is sent stays in the conversation and is
 * sent again with every later request, so one 3 MB result would make every later turn of the chat
 * fail; a cut result says where it was cut and how to ask for the rest.
 */
export const RESULT_LIMITS = {
  /** Text of one result (about 25k tokens). */
  textPerResult: 100 * 1024,
  /** Text of all the results that answer one reply: calls run side by side share it. */
  textPerReply: 200 * 1024,
  /** Of a cut text its end is kept too: logs, test runs and pagers put the verdict last. */
  tailBytes: 4 * 1024,
  /** Base64 characters of one image: the Messages API refuses a bigger one (5 MB). */
  imageBytes: 5 * 1024 * 1024,
  /** Base64 characters of all the images that answer one reply. */
  imageBytesPerReply: 5 * 1024 * 1024,
  imagesPerReply: 20,
};

/** The text a reply's results may send: a model with a small window (a proxy, a local model) gets less. */
export interface TextLimits {
  textPerResult: number;
  textPerReply: number;
}

/** The fixed caps, for a model whose window is unknown or large. */
export const DEFAULT_TEXT_LIMITS: TextLimits = { textPerResult: RESULT_LIMITS.textPerResult, textPerReply: RESULT_LIMITS.textPerReply };

/**
 * The caps for a model's input window: one reply's results take at most a quarter of it (at 4 bytes a
 * token, the estimate compaction uses), never more than the fixed caps, so that a single result never
 * makes a request larger than the window ("prompt is too long" would fail the turn, and every later one).
 */
export function textLimitsFor(contextWindow: number | undefined): TextLimits {
  if (!contextWindow) return DEFAULT_TEXT_LIMITS;
  const reply = Math.max(2 * 1024, Math.floor(contextWindow / 4) * 4);
  return { textPerResult: Math.min(RESULT_LIMITS.textPerResult, reply), textPerReply: Math.min(RESULT_LIMITS.textPerReply, reply) };
}

/** Room kept for the note in a cut result, so a capped result is within its cap and capping it again changes nothing. */
const NOTE_RESERVE = 800;

type ResultBlock = Exclude<Anthropic.ToolResultBlockParam['content'], string | undefined>[number];

/** What is left of the image allowance of one reply. */
interface ImageBudget {
  bytes: number;
  count: number;
}

const replyImageBudget = (): ImageBudget => ({ bytes: RESULT_LIMITS.imageBytesPerReply, count: RESULT_LIMITS.imagesPerReply });

/**
 * Caps the results that answer one reply. Small results pass whole; the big ones share what the
 * small ones leave of the reply's allowance, each at most `textPerResult`.
 */
export function capToolResults(
  results: readonly Anthropic.ToolResultBlockParam[],
  toolNames: ReadonlyMap<string, string> = new Map(),
  textLimits: TextLimits = DEFAULT_TEXT_LIMITS,
): Anthropic.ToolResultBlockParam[] {
  const limits = shareBudget(
    results.map((r) => textBytes(blocksOf(r.content))),
    textLimits.textPerReply,
    textLimits.textPerResult,
  );
  const images = replyImageBudget();
  return results.map((result, i) => {
    const capped = capBlocks(blocksOf(result.content), limits[i]!, images, toolNames.get(result.tool_use_id), textLimits);
    return capped ? { ...result, content: capped } : result;
  });
}

/** Caps what the chat shows of one result: the same per-result limits, so a page never gets megabytes. */
export function capChatContent(content: ToolContent[], toolName?: string): ToolContent[] {
  const blocks = content.map((c): ResultBlock =>
    c.type === 'text' ? { type: 'text', text: c.text } : { type: 'image', source: { type: 'base64', media_type: c.mimeType as 'image/png', data: c.data } },
  );
  const capped = capBlocks(blocks, RESULT_LIMITS.textPerResult, replyImageBudget(), toolName);
  if (!capped) return content;
  return capped.flatMap((b): ToolContent[] => {
    if (b.type === 'text') return [{ type: 'text', text: b.text }];
    if (b.type === 'image' && b.source.type === 'base64') return [{ type: 'image', mimeType: b.source.media_type, data: b.source.data }];
    return [];
  });
}

/** Caps the tool results a user message carries (one line of a saved chat). Unchanged messages are returned as they are. */
function capMessage(message: Anthropic.MessageParam, toolNames?: ReadonlyMap<string, string>): Anthropic.MessageParam {
  if (message.role !== 'user' || typeof message.content === 'string') return message;
  const results = message.content.filter((b): b is Anthropic.ToolResultBlockParam => b.type === 'tool_result');
  if (results.length === 0) return message;
  const capped = capToolResults(results, toolNames);
  if (capped.every((c, i) => c === results[i])) return message;
  let next = 0;
  return { ...message, content: message.content.map((b) => (b.type === 'tool_result' ? capped[next++]! : b)) };
}

/** Caps every tool result of a conversation, so a chat saved before the caps (or by an older version) can be sent again. */
export function capHistory(messages: readonly Anthropic.MessageParam[]): Anthropic.MessageParam[] {
  let names = new Map<string, string>();
  return messages.map((m) => {
    if (m.role === 'assistant') {
      if (typeof m.content !== 'string') names = new Map(m.content.flatMap((b) => (b.type === 'tool_use' ? [[b.id, b.name] as const] : [])));
      return m;
    }
    return capMessage(m, names);
  });
}

/** Per-item caps so the items sum to at most `total`: the largest cap c with sum(min(size, c)) <= total. */
function shareBudget(sizes: number[], total: number, perItem: number): number[] {
  const order = sizes.map((size, i) => ({ size, i })).sort((a, b) => a.size - b.size);
  let left = total;
  let cap = perItem;
  for (const [k, { size }] of order.entries()) {
    const fair = Math.floor(left / (order.length - k));
    if (Math.min(size, perItem) > fair) {
      cap = Math.min(perItem, fair);
      break;
    }
    left -= Math.min(size, perItem);
  }
  return sizes.map(() => cap);
}

function blocksOf(content: Anthropic.ToolResultBlockParam['content']): ResultBlock[] {
  if (content === undefined) return [];
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

function textBytes(blocks: ResultBlock[]): number {
  return blocks.reduce((n, b) => n + (b.type === 'text' ? utf8Bytes(b.text) : 0), 0);
}

/** The capped blocks, or undefined when nothing had to change. */
function capBlocks(
  blocks: ResultBlock[],
  textLimit: number,
  images: ImageBudget,
  toolName: string | undefined,
  textLimits: TextLimits = DEFAULT_TEXT_LIMITS,
): ResultBlock[] | undefined {
  const total = textBytes(blocks);
  const texts = total > textLimit ? cutTexts(blocks, total, textLimit, toolName, textLimits) : undefined;
  let changed = texts !== undefined;
  const out: ResultBlock[] = [];
  blocks.forEach((block, i) => {
    if (block.type === 'text') {
      out.push(...(texts?.get(i) ?? [block]));
      return;
    }
    const source = block.type === 'image' && block.source.type === 'base64' ? block.source : undefined;
    const refusal = source && takeImage(images, source.data.length);
    if (source && refusal) {
      changed = true;
      out.push({ type: 'text', text: `[${source.media_type} image of ${formatBytes(source.data.length)} not sent: ${refusal}]` });
    } else out.push(block);
  });
  return changed ? out : undefined;
}

function takeImage(budget: ImageBudget, size: number): string | undefined {
  if (size > RESULT_LIMITS.imageBytes) {
    return `over the ${formatBytes(RESULT_LIMITS.imageBytes)} the Messages API takes per image (base64); ask the tool for a smaller one`;
  }
  if (budget.count < 1 || size > budget.bytes) {
    return `the images of these tool results went over ${RESULT_LIMITS.imagesPerReply} images or ${formatBytes(RESULT_LIMITS.imageBytesPerReply)} in one reply; ask for fewer or smaller ones`;
  }
  budget.count -= 1;
  budget.bytes -= size;
  return undefined;
}

const text = (t: string): ResultBlock[] => (t ? [{ type: 'text', text: t }] : []); // the API refuses empty text blocks

/**
 * Keeps the start of the text (whole blocks while they fit, then the start of the next) and the end
 * of the last block, with a note between them; the blocks in the middle are left out. Returns the
 * replacement of every text block by index.
 */
function cutTexts(blocks: ResultBlock[], total: number, limit: number, toolName: string | undefined, textLimits: TextLimits): Map<number, ResultBlock[]> {
  const indices = blocks.flatMap((b, i) => (b.type === 'text' ? [i] : []));
  const textAt = (i: number): string => (blocks[i] as Anthropic.TextBlockParam).text;
  const tailBudget = Math.min(RESULT_LIMITS.tailBytes, Math.floor(limit / 8));
  let room = Math.max(0, limit - tailBudget - NOTE_RESERVE);
  const plan = new Map<number, ResultBlock[]>();
  let cutAt = -1;
  let head = '';
  let kept = 0;
  for (const i of indices) {
    const size = utf8Bytes(textAt(i));
    if (cutAt < 0 && size <= room) {
      plan.set(i, [blocks[i]!]);
      room -= size;
      kept += size;
    } else if (cutAt < 0) {
      cutAt = i;
      head = headOf(textAt(i), room);
    } else plan.set(i, []);
  }
  const last = indices[indices.length - 1]!;
  const lastText = textAt(last);
  const tail = tailOf(last === cutAt ? lastText.slice(head.length) : lastText, tailBudget);
  const single = indices.length === 1;
  const note = cutNote({
    total,
    limit,
    textLimits,
    toolName,
    sentBytes: kept + utf8Bytes(head),
    tailBytes: utf8Bytes(tail),
    // line numbers only when they are exact: one text block, cut at line breaks
    lines:
      single && (head === '' || head.endsWith('\n')) && (tail === '' || lastText[lastText.length - tail.length - 1] === '\n')
        ? { total: countLines(lastText), head: countLines(head), tail: countLines(tail) }
        : undefined,
  });
  plan.set(cutAt, [...text(head), { type: 'text', text: note }, ...(last === cutAt ? text(tail) : [])]);
  if (last !== cutAt) plan.set(last, text(tail));
  return plan;
}

function cutNote(o: {
  total: number;
  limit: number;
  textLimits: TextLimits;
  toolName: string | undefined;
  sentBytes: number;
  tailBytes: number;
  lines: { total: number; head: number; tail: number } | undefined;
}): string {
  const n = (x: number): string => x.toLocaleString('en-US');
  const l = o.lines;
  const first = l ? `lines 1-${n(l.head)} (${formatBytes(o.sentBytes)})` : `the first ${formatBytes(o.sentBytes)}`;
  const end = o.tailBytes === 0 ? '' : l ? ` and lines ${n(l.total - l.tail + 1)}-${n(l.total)} below` : ` and the last ${formatBytes(o.tailBytes)} below`;
  const gap = l ? `lines ${n(l.head + 1)}-${n(l.total - l.tail)}` : `the ${formatBytes(Math.max(0, o.total - o.sentBytes - o.tailBytes))} in between`;
  const limits = `at most ${formatBytes(o.textLimits.textPerResult)} per tool result and ${formatBytes(o.textLimits.textPerReply)} for all the results of one reply`;
  return (
    `[cut: this result held ${formatBytes(o.total)} of text${l ? ` (${n(l.total)} lines)` : ''}, over the ${formatBytes(o.limit)} it may send to the model (${limits}). ` +
    `Sent: ${first} above${end}; ${gap} left out. To see them, call ${o.toolName ?? 'the tool'} again for a smaller part: ` +
    `an offset and limit or a line range (read_file takes offset and limit), a narrower path or query, or a filter.]`
  );
}
