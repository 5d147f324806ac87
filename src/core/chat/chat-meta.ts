import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { writeWhole } from './jsonl-log';
import { CHAT_FORMAT } from './chat-format';
import type { TurnUsage } from '../../common/protocol';

const tokens = z.number().int().nonnegative();

/** A chat id: also a folder name, and typed by people after `--resume`. */
export const CHAT_ID = /^[a-z0-9]{4,32}$/;

const chatMetaSchema = z.object({
  id: z.string().regex(CHAT_ID),
  title: z.string().max(200),
  /** The person renamed it: its first message no longer names it. */
  renamed: z.boolean().optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** The model of its latest turn. */
  model: z.string().max(200),
  usage: z.object({ input: tokens, output: tokens, cacheRead: tokens, cacheWrite: tokens, costUsd: z.number().nonnegative().optional() }),
  /** Turns whose cost is unknown (a model missing from the price table): the total cost is then a lower bound. */
  unpricedTurns: z.number().int().nonnegative().optional(),
  /** The system prompt the chat started with (kept so the cached prefix stays the same for the whole chat). */
  system: z.object({ text: z.string(), tools: z.array(z.string()) }).optional(),
  /** The stored format (chat-format.ts); absent: 1. */
  format: z.number().int().positive().optional(),
});
export type ChatMeta = z.infer<typeof chatMetaSchema>;

export function newChatId(): string {
  // time first so ids sort by creation; the random tail keeps two windows from colliding
  return `${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
}

export function newMeta(id: string, model: string, now = Date.now()): ChatMeta {
  return { id, title: 'New chat', createdAt: now, updatedAt: now, model, usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, format: CHAT_FORMAT };
}

/** A title from the first message: its first line, shortened at a word. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]!.replace(/\s+/g, ' ').trim();
  if (line.length <= 60) return line || 'New chat';
  const cut = line.slice(0, 60);
  const space = cut.lastIndexOf(' ');
  return `${(space > 30 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export async function readMeta(dir: string): Promise<ChatMeta | undefined> {
  try {
    const parsed = chatMetaSchema.safeParse(JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Written to a temporary file and renamed over the old one: a crash leaves the old or the new, never half.
 * Private like the chat's logs (its title is the chat's first words).
 */
export async function writeMeta(dir: string, meta: ChatMeta): Promise<void> {
  await writeWhole(join(dir, 'meta.json'), JSON.stringify(meta));
}

/** The chat's totals with one more turn's (or server request's) usage; a turn without a price is counted as such. */
export function withTurnUsage(meta: ChatMeta, u: TurnUsage): Pick<ChatMeta, 'model' | 'usage' | 'unpricedTurns'> {
  const total = meta.usage;
  const priced = u.costUsd !== undefined;
  return {
    model: u.model,
    usage: {
      input: total.input + u.input,
      output: total.output + u.output,
      cacheRead: total.cacheRead + u.cacheRead,
      cacheWrite: total.cacheWrite + u.cacheWrite,
      ...(priced || total.costUsd !== undefined ? { costUsd: (total.costUsd ?? 0) + (u.costUsd ?? 0) } : {}),
    },
    ...(priced ? {} : { unpricedTurns: (meta.unpricedTurns ?? 0) + 1 }),
  };
}
