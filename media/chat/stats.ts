/** Counters the tests read to prove batching works (renders stay far below deltas). */
export const stats = {
  deltas: 0,
  markdownRenders: 0,
  frames: 0,
  /** MCP App views that have sized themselves (drawn). */
  appsShown: 0,
  /** When a call with a view got its result on this page (timeOrigin + now, comparable across frames): the bench's start. */
  appResultAt: {} as Record<string, number>,
  /** Each view's loading steps by its call (app-frames.ts), for the bench's breakdown. */
  appTraces: {} as Record<string, Record<string, number>>,
};
