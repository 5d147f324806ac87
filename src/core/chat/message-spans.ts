import type Anthropic from '@anthropic-ai/sdk';
import { repairHistory } from '../agent/history-repair';
import type { ChatEvent } from '../../common/protocol';

/**
 * Where each of the person's messages sits in the conversation the model sees, so the chat can go back to it
 * (edit and resend, regenerate). A `user` event carries its `span`: the conversation's messages [from, to) are
 * the ones the message added (a NO_REPLY closing an earlier unanswered message, then the person's, or a
 * prompt's several). The spans always index the conversation as it is stored and held now: a compaction
 * shifts them, and a conversation that repairHistory changes on load is written back with them mapped.
 */
export type Span = NonNullable<Extract<ChatEvent, { kind: 'user' }>['span']>;
type UserEvent = Extract<ChatEvent, { kind: 'user' }>;

/**
 * The span a message will have: it starts at the conversation's end, and the agent closes an earlier message
 * left unanswered with a NO_REPLY before it (Agent.addUserContent), then adds the message's `count` messages.
 */
export function spanOf(history: readonly Anthropic.MessageParam[], count: number): Span {
  const from = history.length;
  return { from, to: from + (history.at(-1)?.role === 'user' ? 1 : 0) + count };
}

/**
 * After a compaction replaced the first `replaced` messages by one summary merged into the next: every span
 * moves back by that much. A message whose start went into the summary can no longer be edited (no `from`);
 * one wholly in it has no span left.
 */
export function afterCompaction(events: readonly ChatEvent[], replaced: number): ChatEvent[] {
  return events.map((e) => (e.kind === 'user' && e.span ? withSpan(e, shift(e.span, replaced)) : e));
}

/**
 * The spans of a stored conversation mapped onto its repaired form (repairHistory joins the replies of a
 * paused turn, closes messages left unanswered, answers calls cut off): what was before a point in the stored
 * conversation is, repaired, exactly as long as the repair of that part alone.
 */
export function afterRepair(events: readonly ChatEvent[], stored: readonly Anthropic.MessageParam[]): ChatEvent[] {
  const at = (index: number): number => repairHistory(stored.slice(0, index)).length;
  return events.map((e) => {
    if (e.kind !== 'user' || !e.span) return e;
    const { from, to } = e.span;
    return withSpan(e, { ...(from !== undefined ? { from: at(from) } : {}), to: at(to) });
  });
}

/** Whether repairHistory changed the stored conversation (it keeps the messages it leaves alone). */
export function repairChanged(stored: readonly Anthropic.MessageParam[], repaired: readonly Anthropic.MessageParam[]): boolean {
  return stored.length !== repaired.length || stored.some((m, i) => m !== repaired[i]);
}

/** What going back to a message keeps: `edit` keeps what came before it, `regenerate` the message too. */
export type RewindMode = 'edit' | 'regenerate';

export interface RewindPoint {
  /** How many of the chat's events stay. */
  events: number;
  /** How many of the conversation's messages stay. */
  messages: number;
  /** The events that go. */
  dropped: ChatEvent[];
}

/** Where the chat goes back to for the person's message `id`, or why it cannot. */
export function rewindPoint(events: readonly ChatEvent[], historyLength: number, id: string, mode: RewindMode): RewindPoint | { why: string } {
  const index = events.findIndex((e) => e.kind === 'user' && e.id === id);
  const event = events[index] as UserEvent | undefined;
  if (!event) return { why: 'That message is no longer in this chat.' };
  const span = event.span;
  if (!span || span.to > historyLength)
    return { why: 'This message was never sent to the model (or the chat was saved before messages could be edited), so the chat cannot go back to it.' };
  const messages = mode === 'edit' ? span.from : span.to;
  if (messages === undefined)
    return {
      why: 'The conversation before this message was summarised to fit the context window, so it can no longer be edited; regenerating its answer still works.',
    };
  const kept = mode === 'edit' ? index : index + 1;
  return { events: kept, messages, dropped: events.slice(kept) };
}

function shift(span: Span, by: number): Span | undefined {
  const to = span.to - by;
  if (to < 1) return undefined;
  const from = span.from === undefined ? undefined : span.from - by;
  return from !== undefined && from >= 1 ? { from, to } : { to };
}

function withSpan(e: UserEvent, span: Span | undefined): UserEvent {
  const { span: _old, ...rest } = e;
  return span ? { ...rest, span } : rest;
}
