import type Anthropic from '@anthropic-ai/sdk';
import { readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chatEventSchema, type ChatEvent } from '../../common/protocol';
import { JsonlLog, PRIVATE_FILE } from './jsonl-log';
import type { SecretRecord } from '../egress/chat-labels';

/** Left in a chat's folder when a write of it failed: the next open says so, instead of guessing why the chat ends early. */
const UNSAVED_MARK = 'save-failed';

/** What the mark says: when, and why (empty when even that could not be written: a full disk still makes an empty file). */
export interface UnsavedMark {
  at?: string;
  error?: string;
}

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
    this.events = new JsonlLog(
      join(dir, 'events.jsonl'),
      (v) => {
        const parsed = chatEventSchema.safeParse(v);
        return parsed.success ? parsed.data : undefined;
      },
      (err) => void this.markUnsaved(err),
    );
    this.messages = new JsonlLog(
      join(dir, 'messages.jsonl'),
      (v) => {
        const m = v as Anthropic.MessageParam;
        return m && (m.role === 'user' || m.role === 'assistant') && m.content !== undefined ? m : undefined;
      },
      (err) => void this.markUnsaved(err),
    );
    this.labels = new JsonlLog(
      join(dir, 'labels.jsonl'),
      (v) => {
        const r = v as SecretRecord;
        return r && typeof r.why === 'string' && typeof r.at === 'number' ? { at: r.at, why: r.why.slice(0, 500) } : undefined;
      },
      (err) => void this.markUnsaved(err),
    );
  }

  /** The first write that failed, of either log. */
  get saveError(): Error | undefined {
    return this.events.lastError ?? this.messages.lastError;
  }

  /** Notes that a write failed (best effort: on a full disk the note itself may stay empty, which still says it). */
  async markUnsaved(error: Error): Promise<void> {
    const file = join(this.dir, UNSAVED_MARK);
    await writeFile(file, JSON.stringify({ at: new Date().toISOString(), error: error.message }), { mode: PRIVATE_FILE }).catch(() => undefined);
  }

  /** The mark a failed write left, taken away (the chat now says it); undefined when there is none. */
  async takeUnsavedMark(): Promise<UnsavedMark | undefined> {
    const file = join(this.dir, UNSAVED_MARK);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      return undefined;
    }
    await unlink(file).catch(() => undefined);
    try {
      const mark = JSON.parse(text) as UnsavedMark;
      return { at: typeof mark.at === 'string' ? mark.at : undefined, error: typeof mark.error === 'string' ? mark.error : undefined };
    } catch {
      return {};
    }
  }

  async clear(): Promise<void> {
    await Promise.all([this.events.flush(), this.messages.flush(), this.labels.flush()]);
    await rm(this.dir, { recursive: true, force: true });
  }
}
