/**
 * Where a saved chat may be cut so its newest part is drawn first and the older parts later, each on its
 * own: only at a person's message, and only where no later event refers back past the cut (a result to a
 * call, an approval, a turn carried on) — so each part renders the same as it would in one go.
 */
import type { ChatEvent } from '../../src/common/protocol';

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

/** A saved chat shows at least this many of its newest messages at once (more than a screen holds). */
const FIRST_MESSAGES = 16;

/** Which of the parts (`starts`, from replayParts) is the oldest drawn at once: the ones from it on fill the screen. */
export function firstShownPart(events: readonly ChatEvent[], starts: readonly number[]): number {
  let k = starts.length - 1;
  let shown = 0;
  for (let i = events.length - 1; k > 0; i--) {
    // Questions and the answers' texts are what a person counts as messages.
    if (events[i]?.kind === 'user' || events[i]?.kind === 'assistant_text') shown++;
    if (i === starts[k]) {
      if (shown >= FIRST_MESSAGES) break;
      k--;
    }
  }
  return k;
}
