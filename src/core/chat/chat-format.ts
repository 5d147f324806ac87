import type Anthropic from '@anthropic-ai/sdk';
import { capChatContent, capHistory } from '../agent/result-caps';
import type { ChatEvent } from '../../common/protocol';

/**
 * The version of a chat as stored (`meta.json`'s `format`), and the one migration to it.
 *
 * 1 (no `format`): chats of versions before tool results were capped when written; a result could
 *   hold megabytes, which the page cannot draw and the API refuses.
 * 2: every tool result is capped when written (result-caps.ts), for the page and for the model.
 *
 * A chat is migrated once, when it is first opened: its logs are rewritten capped and stamped, so a
 * load reads and validates, and never caps again.
 *
 * Within format 2, the person's messages carry their `span` in the conversation since messages can be edited
 * and regenerated (message-spans.ts); an older chat's messages have none and simply offer neither. Going back
 * rewrites both logs (replace()), and so does a load whose repair changed the conversation, so the spans
 * always index what is stored.
 */
export const CHAT_FORMAT = 2;

/** A stored chat's events and conversation as the current format has them. */
export function migrate(
  format: number | undefined,
  events: ChatEvent[],
  messages: Anthropic.MessageParam[],
): { events: ChatEvent[]; messages: Anthropic.MessageParam[] } | undefined {
  if ((format ?? 1) >= CHAT_FORMAT) return undefined;
  return {
    events: events.map((e) => (e.kind === 'tool_result' ? { ...e, content: capChatContent(e.content) } : e)),
    messages: capHistory(messages),
  };
}

/**
 * What the page is sent of the stored events: the records as stored, less what is kept for the host alone (a
 * view's result, which the host hands the view itself: megabytes the page would only carry).
 */
export function pageEvents(stored: readonly ChatEvent[]): ChatEvent[] {
  return stored.map(pageEvent);
}

export function pageEvent(event: ChatEvent): ChatEvent {
  if (event.kind !== 'tool_result' || event.appResult === undefined) return event;
  const { appResult: _kept, ...shown } = event;
  return shown;
}
