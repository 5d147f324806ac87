import { parentPort, workerData } from 'node:worker_threads';
import { ToolError } from '../lib/results';
import type { WorkerMessage, WorkerRole } from './worker-protocol';
import { runSearch, type SearchInput } from './search-task';
import { runSql, type SqlInput } from './sql-task';
import { messageOf } from '../../src/node/error-message';

type Post = (m: WorkerMessage, transfer?: ArrayBuffer[]) => void;

/** What one role does with a task: its result, and buffers to hand over rather than copy. */
type Handler = (input: unknown, progress: (p: unknown) => void) => Promise<{ result: unknown; transfer?: ArrayBuffer[] }>;

const handlers: Record<WorkerRole, Handler> = {
  search: async (input, progress) => ({ result: runSearch(input as SearchInput, progress) }),
  sql: (input) => runSql(input as SqlInput),
};

/** The body of a worker thread started by TaskWorker: answers tasks one at a time. */
export function serveWorker(): void {
  const port = parentPort;
  if (!port) return;
  // Nothing a library prints may reach the process's stdout (the MCP stream); the parent pipes it to stderr anyway.
  console.log = console.error;
  console.info = console.error;
  const post: Post = (m, transfer) => port.postMessage(m, transfer ?? []);
  const handle = handlers[(workerData as { role: WorkerRole }).role];
  port.on('message', (input: unknown) => {
    post({ type: 'started' });
    handle(input, (progress) => post({ type: 'progress', progress })).then(
      ({ result, transfer }) => post({ type: 'done', result }, transfer),
      (err: unknown) => post({ type: 'error', message: messageOf(err), toolError: err instanceof ToolError }),
    );
  });
}
