import type Anthropic from '@anthropic-ai/sdk';
import { repairHistory } from '../agent/history-repair';
import type { ChatEvent } from '../../shared/protocol';
import { migrate } from './chat-format';
import type { ChatStore } from './chat-store';
import { afterRepair, repairChanged } from './message-spans';

/**
 * A saved chat as a session opens it: brought to today's format once (written back, so the next open reads it
 * as it is), and its messages repaired the way the model must be sent them, written back too, so the messages'
 * spans in the events index what is on disk (message-spans.ts).
 */
export async function readChat(
  store: ChatStore,
  format: number | undefined,
): Promise<{ events: ChatEvent[]; messages: Anthropic.MessageParam[]; migrated: boolean }> {
  let [events, messages] = await Promise.all([store.events.load(), store.messages.load()]);
  const migrated = migrate(format, events, messages);
  if (migrated) {
    ({ events, messages } = migrated);
    await Promise.all([store.events.replace(events), store.messages.replace(messages)]);
  }
  const repaired = repairHistory(messages);
  if (repairChanged(messages, repaired)) {
    events = afterRepair(events, messages);
    await Promise.all([store.events.replace(events), store.messages.replace(repaired)]);
  }
  return { events, messages: repaired, migrated: migrated !== undefined };
}
