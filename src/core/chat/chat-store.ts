import type Anthropic from '@anthropic-ai/sdk';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { chatEventSchema, type ChatEvent } from '../../shared/protocol';
import { JsonlLog } from './jsonl-log';
import type { SecretRecord } from '../egress/chat-labels';

/**
 * One chat on disk: the events the person sees (`events.jsonl`) and the conversation the model
 * sees (`messages.jsonl`), both append-only, in a folder of the extension's workspace storage.
 */
export class ChatStore {
  readonly events: JsonlLog<ChatEvent>;
  readonly messages: JsonlLog<Anthropic.MessageParam>;
  /** The secrets the chat holds (egress/chat-labels.ts): kept apart from the messages, so no compaction drops them. */
  readonly labels: JsonlLog<SecretRecord>;

  constructor(readonly dir: string) {
    // Read and checked, never changed: a chat of an older format is migrated once (chat-format.ts).
    this.events = new JsonlLog(join(dir, 'events.jsonl'), (v) => {
      const parsed = chatEventSchema.safeParse(v);
      return parsed.success ? parsed.data : undefined;
    });
    this.messages = new JsonlLog(join(dir, 'messages.jsonl'), (v) => {
      const m = v as Anthropic.MessageParam;
      return m && (m.role === 'user' || m.role === 'assistant') && m.content !== undefined ? m : undefined;
    });
    this.labels = new JsonlLog(join(dir, 'labels.jsonl'), (v) => {
      const r = v as SecretRecord;
      return r && typeof r.why === 'string' && typeof r.at === 'number' ? { at: r.at, why: r.why.slice(0, 500) } : undefined;
    });
  }

  async clear(): Promise<void> {
    await Promise.all([this.events.flush(), this.messages.flush(), this.labels.flush()]);
    await rm(this.dir, { recursive: true, force: true });
  }
}
