import type Anthropic from '@anthropic-ai/sdk';
import { randomUUID } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { repairHistory } from '../agent/history-repair';
import type { ChatEvent } from '../../common/protocol';
import { migrate } from './chat-format';
import type { ChatStore } from './chat-store';
import { PRIVATE_FILE, type JsonlLog, type UnreadableLine } from './jsonl-log';
import { afterRepair, repairChanged } from './message-spans';

/** Lines of a chat's file that could not be read: what the person is told, and whether they were moved aside. */
export interface UnreadableLines {
  file: string;
  lines: number[];
  /** Where they are kept now (left out of the chat); undefined: still in the file (this session may not write it, or could not). */
  keptIn?: string;
}

/**
 * A saved chat as a session opens it. The writer of the chat (`write`) also brings it to today's format once
 * (written back, so the next open reads it as it is), writes back its messages repaired the way the model must
 * be sent them, so the messages' spans in the events index what is on disk (message-spans.ts), and moves lines it
 * cannot read to a file of their own beside the log (`events.jsonl.unreadable`), kept there, out of the way of
 * the next rewrite. A session that only shows the chat does all of that in memory only.
 */
export async function readChat(
  store: ChatStore,
  format: number | undefined,
  write = true,
): Promise<{ events: ChatEvent[]; messages: Anthropic.MessageParam[]; migrated: boolean; unreadable: UnreadableLines[] }> {
  const [readEvents, readMessages] = await Promise.all([store.events.loadChecked(), store.messages.loadChecked()]);
  let { records: events } = readEvents;
  let { records: messages } = readMessages;
  const unreadable = await Promise.all([
    setAside(store.events, readEvents.unreadable, events, write),
    setAside(store.messages, readMessages.unreadable, messages, write),
  ]);
  const migrated = migrate(format, events, messages);
  if (migrated) {
    ({ events, messages } = migrated);
    if (write) await Promise.all([store.events.replace(events), store.messages.replace(messages)]);
  }
  const repaired = repairHistory(messages);
  if (repairChanged(messages, repaired)) {
    events = afterRepair(events, messages);
    if (write) await Promise.all([store.events.replace(events), store.messages.replace(repaired)]);
  }
  return { events, messages: repaired, migrated: migrated !== undefined, unreadable: unreadable.filter((u) => u !== undefined) };
}

/**
 * The turn a saved chat leaves open (no turn_end after it): the turn of the events after the last end, or, when
 * none of them was saved, a new id for the turn the person's last message started.
 */
export function openTurnId(events: readonly ChatEvent[]): string | undefined {
  const after = events.slice(events.map((e) => e.kind).lastIndexOf('turn_end') + 1);
  const open = after.find((e): e is Extract<ChatEvent, { turnId: string }> => 'turnId' in e);
  if (open) return open.turnId;
  // A message sent to the model (it has its span) whose turn saved nothing at all.
  return after.some((e) => e.kind === 'user' && e.span !== undefined) ? randomUUID() : undefined;
}

/** Appends the unreadable lines to `<log>.unreadable` (one JSON record each), then writes the log without them. */
async function setAside<T>(log: JsonlLog<T>, lines: UnreadableLine[], records: T[], write: boolean): Promise<UnreadableLines | undefined> {
  if (lines.length === 0) return undefined;
  const said: UnreadableLines = { file: basename(log.file), lines: lines.map((l) => l.line) };
  if (!write) return said;
  const aside = `${log.file}.unreadable`;
  const at = new Date().toISOString();
  try {
    await appendFile(aside, lines.map((l) => `${JSON.stringify({ line: l.line, at, text: l.text })}\n`).join(''), { encoding: 'utf8', mode: PRIVATE_FILE });
  } catch {
    return said; // not kept elsewhere: so it stays where it is
  }
  await log.replace(records);
  return log.lastError ? said : { ...said, keptIn: basename(aside) };
}
