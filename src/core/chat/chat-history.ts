import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import type { ChatEvent } from '../../common/protocol';
import { CHAT_ID, newChatId, readMeta, writeMeta, type ChatMeta } from './chat-meta';
import { ChatStore } from './chat-store';
import { openTurnId } from './chat-read';
import { transcriptMarkdown } from './transcript-markdown';

/**
 * Every chat of one workspace: a folder each (`meta.json`, `events.jsonl`, `messages.jsonl`)
 * under the workspace's chats folder. Listing reads only the small meta files.
 */
export class ChatHistory {
  constructor(readonly dir: string) {}

  /** Newest activity first. A folder without a readable meta file is not a chat and is left alone. */
  async list(): Promise<ChatMeta[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const metas = await Promise.all(names.filter((n) => CHAT_ID.test(n)).map((n) => readMeta(join(this.dir, n))));
    return metas.filter((m): m is ChatMeta => m !== undefined).sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async latest(): Promise<ChatMeta | undefined> {
    return (await this.list())[0];
  }

  async get(id: string): Promise<ChatMeta | undefined> {
    return CHAT_ID.test(id) ? readMeta(this.chatDir(id)) : undefined;
  }

  store(id: string): ChatStore {
    return new ChatStore(this.chatDir(id));
  }

  /**
   * A copy of a chat under a new id, from what `session` read of it (only valid records), for a front end that
   * finds the chat being written by another: the two go their own ways. A turn still open in the copy is closed
   * with the reason (`why`).
   */
  async fork(meta: ChatMeta, events: readonly ChatEvent[], messages: readonly Anthropic.MessageParam[], why: string): Promise<ChatMeta> {
    const copy: ChatMeta = { ...meta, id: newChatId(), updatedAt: Date.now() };
    const store = this.store(copy.id);
    const open = openTurnId(events);
    const closed: ChatEvent[] = open ? [...events, { kind: 'turn_end', turnId: open, status: 'stopped', error: why }] : [...events];
    await Promise.all([store.events.replace(closed), store.messages.replace(messages)]);
    const failed = store.saveError;
    if (failed) {
      await rm(store.dir, { recursive: true, force: true });
      throw failed;
    }
    await writeMeta(store.dir, copy);
    return copy;
  }

  async rename(id: string, title: string): Promise<ChatMeta | undefined> {
    const meta = await this.get(id);
    const clean = title.replace(/\s+/g, ' ').trim().slice(0, 200);
    if (!meta || !clean) return undefined;
    const renamed = { ...meta, title: clean, renamed: true };
    await writeMeta(this.chatDir(id), renamed);
    return renamed;
  }

  async delete(id: string): Promise<void> {
    if (!CHAT_ID.test(id)) throw new Error(`"${id}" is not a chat id.`);
    await rm(this.chatDir(id), { recursive: true, force: true });
  }

  async exportMarkdown(id: string): Promise<string> {
    const meta = await this.get(id);
    if (!meta) throw new Error(`There is no chat ${id} in this workspace.`);
    return transcriptMarkdown(meta, await this.store(id).events.load());
  }

  /** Titles containing every word of the query, in any case; an empty query matches all. */
  async search(query: string): Promise<ChatMeta[]> {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return (await this.list()).filter((m) => words.every((w) => m.title.toLowerCase().includes(w)));
  }

  chatDir(id: string): string {
    if (!CHAT_ID.test(id)) throw new Error(`"${id}" is not a chat id.`);
    return join(this.dir, id);
  }
}
