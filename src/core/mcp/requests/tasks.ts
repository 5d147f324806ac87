/**
 * Task-augmented tool calls (MCP 2025-11-25, experimental): `tools/call` with `task` answers at once with a task;
 * the host polls `tasks/get` at the pace the server asks for, fetches the outcome with `tasks/result`, and sends
 * `tasks/cancel` when the person stops or the call runs out of time.
 *
 * The SDK (v2) keeps the 2025-11-25 task messages as wire vocabulary only, so each is sent with its schema.
 * Cancelling follows the spec: a task is cancelled with `tasks/cancel`, never `notifications/cancelled`, so its
 * polls are not given the call's signal (the SDK would cancel an in-flight poll that way, before tasks/cancel);
 * they are raced against it here and left to finish on their own.
 */
import { CallToolResultSchema, CancelTaskResultSchema, CreateTaskResultSchema, GetTaskResultSchema } from '@modelcontextprotocol/core';
import type { CallToolRequest, CallToolResult, Client, Progress, RequestOptions, Task } from '@modelcontextprotocol/client';
import { McpRequestError, seconds } from '../session/errors';
import { IdleTimer } from '../session/idle-timer';
import { messageOf } from '../../../node/error-message';

/** Polling faster than this is the server asking for a busy loop; slower than this leaves the card stale. */
const MIN_POLL_MS = 20;
const MAX_POLL_MS = 5_000;
const DEFAULT_POLL_MS = 1_000;
/** tasks/cancel is waited for this long at most: Stop must end the call at once whatever the server does. */
const CANCEL_WAIT_MS = 3_000;

export interface TaskCall {
  client: Client;
  server: string;
  params: CallToolRequest['params'];
  /** The call's signal (Stop, and the whole call's limit): aborting it cancels the task. */
  signal: AbortSignal;
  /** How long the task may go without a sign of life (a new status, a new status message, progress). */
  idleMs: number;
  /** Limit of each tasks/get, tasks/result and tasks/cancel request. */
  requestTimeoutMs: number;
  /** Progress as notifications/progress reports it, and the task's status message when it changes. */
  onProgress?: (progress: number, total: number | undefined, message: string | undefined) => void;
  /** `p`, failed if the server goes away first; every wait goes through it (session-end.ts). */
  untilEnded<T>(p: Promise<T>): Promise<T>;
  /** The task's progress (notifications/progress on the token of the request that created it) from now on. */
  followProgress(taskId: string, onProgress: (progress: Progress) => void): () => void;
}

/** What a card shows for a status the server gave no message for. */
const STATUS_WORDS: Record<Task['status'], string> = {
  working: 'working',
  input_required: 'waiting for your answer',
  completed: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
};

const isTerminal = (status: Task['status']): boolean => status === 'completed' || status === 'failed' || status === 'cancelled';

/** Runs one tool call as a task to its end; throws McpRequestError (or the abort) like a plain call would. */
export async function callToolAsTask(call: TaskCall): Promise<CallToolResult> {
  const idle = new IdleTimer(call.idleMs);
  const signal = AbortSignal.any([call.signal, idle.signal]);
  let last: Progress = { progress: 0 };
  const onProgress = (p: Progress): void => {
    idle.reset();
    last = p;
    call.onProgress?.(p.progress, p.total, p.message);
  };
  const report = (message: string | undefined): void => call.onProgress?.(last.progress, last.total, message);
  let taskId: string | undefined;
  let unfollow = (): void => undefined;
  try {
    // The one request of the call that may be cancelled the plain way: until it is answered there is no task.
    const created = await race(
      call.client.request({ method: 'tools/call', params: { ...call.params, task: {} } }, CreateTaskResultSchema, {
        signal,
        timeout: call.requestTimeoutMs,
        onprogress: onProgress,
      }),
      call,
    );
    let task = created.task as Task;
    taskId = task.taskId;
    unfollow = call.followProgress(taskId, onProgress);
    report(task.statusMessage ?? undefined);
    while (!isTerminal(task.status)) {
      // The server waits on the person (an elicitation, a sampling request): tasks/result delivers what it
      // queued and answers once the task is over.
      // As long as a silent plain call may take: a person may be answering.
      if (task.status === 'input_required') return await outcome(call, taskId, signal, Math.max(call.idleMs, call.requestTimeoutMs));
      await sleep(pollMs(task.pollInterval), signal);
      const next = (await poll(call, { method: 'tasks/get', params: { taskId } }, GetTaskResultSchema, signal, call.requestTimeoutMs)) as Task;
      if (next.status !== task.status || next.statusMessage !== task.statusMessage) {
        idle.reset();
        report(next.statusMessage ?? STATUS_WORDS[next.status]);
      }
      task = next;
    }
    if (task.status === 'completed') return await outcome(call, taskId, signal, call.requestTimeoutMs);
    if (task.status === 'failed') return await failedOutcome(call, task, signal);
    throw new McpRequestError(
      'server-error',
      `tool "${call.params.name}" on server ${call.server} was cancelled by the server${task.statusMessage ? `: ${task.statusMessage}` : ''}`,
    );
  } catch (err) {
    if (taskId !== undefined && signal.aborted) await cancel(call, taskId);
    if (idle.signal.aborted && !call.signal.aborted) {
      throw new McpRequestError(
        'timeout',
        `tool "${call.params.name}" on server ${call.server} (run as a task) showed no progress for ${seconds(call.idleMs)}; it was cancelled`,
        { cause: err },
      );
    }
    throw err;
  } finally {
    unfollow();
    idle.clear();
  }
}

/**
 * A request about the task (tasks/get, tasks/result), given up on when `signal` aborts but never cancelled on the
 * wire: the task itself is cancelled with tasks/cancel, and the server answers the request soon after.
 */
function poll<S extends Parameters<Client['request']>[1]>(
  call: TaskCall,
  request: { method: string; params: Record<string, unknown> },
  schema: S,
  signal: AbortSignal,
  timeout: number,
): Promise<unknown> {
  const sent = call.client.request(request, schema as never, { timeout } as RequestOptions) as Promise<unknown>;
  return race(untilAborted(sent, signal), call);
}

async function outcome(call: TaskCall, taskId: string, signal: AbortSignal, timeout: number): Promise<CallToolResult> {
  return (await poll(call, { method: 'tasks/result', params: { taskId } }, CallToolResultSchema, signal, timeout)) as CallToolResult;
}

/** A failed task: the result the server kept for it (usually `isError` with why), else its status message. */
async function failedOutcome(call: TaskCall, task: Task, signal: AbortSignal): Promise<CallToolResult> {
  const why = task.statusMessage ? `: ${task.statusMessage}` : '';
  try {
    const result = await outcome(call, task.taskId, signal, call.requestTimeoutMs);
    return result.isError ? result : { ...result, isError: true };
  } catch (err) {
    if (signal.aborted) throw err;
    throw new McpRequestError('server-error', `tool "${call.params.name}" on server ${call.server} failed as a task${why || ` (${messageOf(err)})`}`, {
      cause: err,
    });
  }
}

/** Best effort, bounded: the call is over either way, but the server should stop its work. */
async function cancel(call: TaskCall, taskId: string): Promise<void> {
  const sent = call.client.request({ method: 'tasks/cancel', params: { taskId } }, CancelTaskResultSchema, {
    timeout: Math.min(CANCEL_WAIT_MS, call.requestTimeoutMs),
  });
  await race(sent, call).catch(() => undefined);
}

function pollMs(asked: number | undefined): number {
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, asked ?? DEFAULT_POLL_MS));
}

function race<T>(p: Promise<T>, call: TaskCall): Promise<T> {
  return call.untilEnded(p);
}

/** `p`, or the signal's reason once it aborts; `p` itself goes on (and is kept from being an unhandled rejection). */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    p.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const stop = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', stop, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', stop);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', stop);
        reject(err as Error);
      },
    );
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const done = (): void => {
      signal.removeEventListener('abort', stop);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stop = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}
