import type Anthropic from '@anthropic-ai/sdk';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { capChatContent, capMessage } from '../agent/result-caps';
import { chatEventSchema, type ChatEvent } from '../../shared/protocol';
import { JsonlLog } from './jsonl-log';

/**
 * One chat on disk: the events the person sees (`events.jsonl`) and the conversation the model
 * sees (`messages.jsonl`), both append-only, in a folder of the extension's workspace storage.
 */
export class ChatStore {
  readonly events: JsonlLog<ChatEvent>;
  readonly messages: JsonlLog<Anthropic.MessageParam>;

  constructor(readonly dir: string) {
    this.events = new JsonlLog(join(dir, 'events.jsonl'), (v) => {
      const parsed = chatEventSchema.safeParse(v);
      if (!parsed.success) return undefined;
      // a chat saved before results were capped must not put megabytes into the page
      const e = parsed.data;
      return e.kind === 'tool_result' ? { ...e, content: capChatContent(e.content) } : e;
    });
    this.messages = new JsonlLog(join(dir, 'messages.jsonl'), (v) => {
      const m = v as Anthropic.MessageParam;
      // capped here too (repairHistory caps again, changing nothing), so a restored chat stays sendable
      return m && (m.role === 'user' || m.role === 'assistant') && m.content !== undefined ? capMessage(m) : undefined;
    });
  }

  async clear(): Promise<void> {
    await Promise.all([this.events.flush(), this.messages.flush()]);
    await rm(this.dir, { recursive: true, force: true });
  }
}
