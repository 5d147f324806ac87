import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CHAT_ID, readMeta, writeMeta, type ChatMeta } from './chat-meta';
import { ChatStore } from './chat-store';
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
