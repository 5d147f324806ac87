/** Counters the tests read to prove batching works (renders stay far below deltas). */
export const stats = { deltas: 0, markdownRenders: 0, frames: 0, appsShown: 0 };
