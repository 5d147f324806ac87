import { cp, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatEvent } from '../../common/protocol';
import { chatEventSchema } from '../../common/protocol';
import type { ChatHistory } from './chat-history';
import { newChatId, newMeta, titleFrom, writeMeta } from './chat-meta';

/**
 * Moves the one chat that versions before the history kept (in the extension's workspace storage)
 * into the history, once, so upgrading loses nothing. Copied before the old folder is removed:
 * a failure leaves the old chat where it was, to be tried again next time.
 */
export async function importLegacyChat(oldDir: string, history: ChatHistory, model: string): Promise<string | undefined> {
  const events = join(oldDir, 'events.jsonl');
  const info = await stat(events).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  const first = await firstUserText(events);
  const meta = newMeta(newChatId(), model, info.birthtimeMs || info.mtimeMs);
  const dir = history.chatDir(meta.id);
  await cp(oldDir, dir, { recursive: true, errorOnExist: true, force: false });
  // Without a format: it is of the first one, and is migrated when first opened (chat-format.ts).
  const { format: _current, ...unversioned } = meta;
  await writeMeta(dir, { ...unversioned, title: first ? titleFrom(first) : 'Earlier chat', updatedAt: info.mtimeMs });
  await rm(oldDir, { recursive: true, force: true });
  return meta.id;
}

async function firstUserText(file: string): Promise<string | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    try {
      const parsed = chatEventSchema.safeParse(JSON.parse(line));
      const e: ChatEvent | undefined = parsed.success ? parsed.data : undefined;
      if (e?.kind === 'user') return e.text;
    } catch {
      // a torn line
    }
  }
  return undefined;
}
