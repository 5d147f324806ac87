/** What the workspace server's worker threads do, and the messages they answer with. */
export type WorkerRole = 'search' | 'sql';

export type WorkerMessage =
  { type: 'started' } | { type: 'progress'; progress: unknown } | { type: 'done'; result: unknown } | { type: 'error'; message: string; toolError: boolean };
