/**
 * Where a saved chat may be cut so its newest part is drawn first and the older parts later, each on its
 * own: only at a person's message, and only where no later event refers back past the cut (a result to a
 * call, an approval, a turn carried on) — so each part renders the same as it would in one go.
 */
import type { ChatEvent } from '../../src/shared/protocol';

/** What an event refers to across events: its turn and its tool call. */
function keysOf(e: ChatEvent): string[] {
  const keys: string[] = [];
  if ('turnId' in e && typeof e.turnId === 'string') keys.push(`t\u0000${e.turnId}`);
  if ('callId' in e && typeof e.callId === 'string') keys.push(`c\u0000${e.callId}`);
  return keys;
}

/** The indexes (ascending, always starting with 0) at which each part of `events` starts. */
export function replayParts(events: readonly ChatEvent[]): number[] {
  const first = new Map<string, number>();
  // The earliest event each event reaches back to.
  const reach = new Array<number>(events.length);
  events.forEach((e, i) => {
    let min = i;
    for (const key of keysOf(e)) {
      const seen = first.get(key);
      if (seen === undefined) first.set(key, i);
      else if (seen < min) min = seen;
    }
    reach[i] = min;
  });
  const starts: number[] = [];
  let low = Infinity;
  for (let i = events.length - 1; i > 0; i--) {
    low = Math.min(low, reach[i] ?? i);
    if (events[i]?.kind === 'user' && low >= i) starts.push(i);
  }
  starts.push(0);
  return starts.reverse();
}

/** What the person reads as messages: their questions and the answers' texts. */
export function messageCount(events: readonly ChatEvent[], from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (events[i]?.kind === 'user' || events[i]?.kind === 'assistant_text') n++;
  return n;
}
