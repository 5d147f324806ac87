/**
 * A tool call through the Tasks extension (2026-07-28): the host declares the extension on the call and the server
 * decides whether it answers at once or with a task. ext-tasks' session drives the task (tasks/get at the server's
 * `pollIntervalMs`, input requests answered with tasks/update); this file keeps the host's promises around it, as
 * tasks.ts does for 2025-11-25: the task's status messages reach the tool card, Stop and the time limits cancel the
 * task with tasks/cancel (the spec forbids notifications/cancelled for a task), a server that goes away fails the
 * call at once, and every failure says what happened in the host's words.
 *
 * The spec has no progress notifications for tasks; a call answered at once may still report progress, on the token
 * the host puts in the call's `_meta` (raw-requests.ts follows it).
 */
import { CallToolResultSchema } from '@modelcontextprotocol/core';
import {
  ProtocolErrorCode,
  UrlElicitationRequiredError,
  type CallToolResult,
  type ElicitRequestURLParams,
  type Progress,
  type Tool,
} from '@modelcontextprotocol/client';
import {
  DispatchError,
  JsonRpcResponseError,
  TaskFailedError,
  toolDeclarationFromMcpTool,
  type TaskExecutionEvent,
  type TaskOutcome,
  type TaskState,
  type ToolExecution,
} from '@modelcontextprotocol/ext-tasks/client';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import { McpRequestError, seconds } from '../session/errors';
import { IdleTimer } from '../session/idle-timer';
import { untilAborted } from '../requests/tasks';
import type { RawRequests } from './raw-requests';
import type { CallInputContext, ToolTaskSession } from './extension-session';
import { deadline } from '../../../node/deadline';

/** tasks/cancel is waited for this long at most: Stop must end the call at once whatever the server does. */
const CANCEL_WAIT_MS = 3_000;

export interface ExtensionCall {
  tasks: ToolTaskSession;
  raw: RawRequests;
  server: string;
  name: string;
  args: Record<string, unknown>;
  /** The host's definition of the tool, when listed. */
  tool: Tool | undefined;
  /** `_meta` keys of the call besides the progress token (the log level, the caller's). */
  meta: Record<string, unknown> | undefined;
  /** The call's signal (Stop, and the whole call's limit): aborting it cancels the task. */
  signal: AbortSignal;
  /** How long the call may go without a sign of life (progress, a new status or status message). */
  idleMs: number;
  onProgress?: (progress: number, total: number | undefined, message: string | undefined) => void;
  /** `p`, failed if the server goes away first (session-end.ts). */
  untilEnded<T>(p: Promise<T>): Promise<T>;
}

/** What a card shows for a status the server gave no message for. */
const STATUS_WORDS: Record<TaskState, string> = {
  working: 'working',
  input_required: 'waiting for your answer',
  completed: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
};

type Outcome = TaskOutcome<unknown>;

/** Runs one tool call to its end, as a task if the server makes one; throws McpRequestError (or the abort) like a plain call. */
export async function callToolThroughExtension(call: ExtensionCall): Promise<CallToolResult> {
  const idle = new IdleTimer(call.idleMs);
  const signal = AbortSignal.any([call.signal, idle.signal]);
  let last: Progress = { progress: 0 };
  const report = (message: string | undefined): void => call.onProgress?.(last.progress, last.total, message);
  const followed = call.raw.follow((p) => {
    idle.reset();
    last = p;
    call.onProgress?.(p.progress, p.total, p.message);
  });
  let asking = 0;
  const input: CallInputContext = {
    signal,
    asking: (delta) => {
      asking += delta;
      if (asking > 0) idle.pause();
      else idle.reset();
    },
  };
  let execution: ToolExecution<unknown, CallInputContext> | undefined;
  try {
    execution = await call.untilEnded(
      call.tasks.callTool(call.name, call.args as Record<string, JsonValue>, {
        signal,
        metadata: { ...call.meta, progressToken: followed.token } as Record<string, JsonValue>,
        applicationContext: input,
        // Each request of the call (tools/call, then tasks/get, tasks/update) is silent at most as long as the call.
        requestTimeoutMs: call.idleMs,
        resetTimeoutOnProgress: true,
        ...(call.tool ? { declaration: toolDeclarationFromMcpTool(call.tool) } : {}),
      }),
    );
    let seen: { status: TaskState; message: string | undefined } | undefined;
    const onEvent = (event: TaskExecutionEvent<unknown>): void => {
      if (event.type !== 'task') return;
      const { status, statusMessage } = event.task;
      if (seen && seen.status === status && seen.message === statusMessage) return;
      seen = { status, message: statusMessage };
      idle.reset();
      report(statusMessage ?? STATUS_WORDS[status]);
    };
    const settled = await call.untilEnded(untilAborted(execution.settle({ onEvent }), signal));
    // The call's signal ends ext-tasks' driving too, which it reports as a failed outcome: it was the abort.
    if (signal.aborted) throw signal.reason;
    return resultOf(call, settled.outcome);
  } catch (err) {
    if (execution?.kind === 'task' && signal.aborted) await cancel(call, execution);
    if (idle.signal.aborted && !call.signal.aborted) {
      const what = `tool "${call.name}" on server ${call.server}`;
      throw new McpRequestError(
        'timeout',
        execution?.kind === 'task'
          ? `${what} (run as a task) showed no progress for ${seconds(call.idleMs)}; it was cancelled`
          : `${what} did not answer within ${seconds(call.idleMs)}; it was cancelled`,
        { cause: err },
      );
    }
    throw hostError(call, err);
  } finally {
    followed.unfollow();
    idle.clear();
  }
}

/** Best effort, bounded: the call is over either way, but the server should stop its work. */
async function cancel(call: ExtensionCall, execution: ToolExecution<unknown, CallInputContext>): Promise<void> {
  const waited = deadline(CANCEL_WAIT_MS);
  try {
    await call.untilEnded(execution.cancel(waited.signal));
  } catch {
    // Not acknowledged in time (or the server is gone): the call ends all the same.
  } finally {
    waited.clear();
  }
  // Stops ext-tasks' polling and withdraws any card still open for the task.
  await execution.close().catch(() => undefined);
}

function resultOf(call: ExtensionCall, outcome: Outcome): CallToolResult {
  const what = `tool "${call.name}" on server ${call.server}`;
  if (outcome.status === 'cancelled') {
    const why = outcome.task?.statusMessage;
    throw new McpRequestError('server-error', `${what} was cancelled by the server${why ? `: ${why}` : ''}`);
  }
  if (outcome.status === 'failed') {
    const answered = jsonRpcError(outcome.error);
    if (!answered) throw hostError(call, outcome.error);
    // A failed task is a JSON-RPC error the server met while running it (a tool's own error comes as a completed task).
    const why = outcome.task?.statusMessage ?? answered.message;
    throw new McpRequestError('server-error', `${what} failed as a task: ${why} (error ${answered.code})`, { cause: outcome.error });
  }
  const { resultType: _resultType, ...result } = outcome.result as Record<string, unknown>;
  const parsed = CallToolResultSchema.safeParse(result);
  if (!parsed.success) throw new McpRequestError('protocol', `${what} answered a result that is not a tool result: ${parsed.error.message}`);
  return parsed.data as CallToolResult;
}

/** The server's own error answer (code and message), wherever ext-tasks wrapped it. */
function jsonRpcError(err: unknown): { code: number; message: string; data?: { elicitations?: unknown } } | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof JsonRpcResponseError) return { code: e.code, message: e.response.message, data: e.data as { elicitations?: unknown } | undefined };
  }
  if (err instanceof TaskFailedError && typeof err.code === 'number') return { code: err.code, message: err.message };
  return undefined;
}

/**
 * What to throw for `err`: the server's error answer in the words a plain call's gets (diagnose.ts), else what lies
 * under ext-tasks' wrapping (a timeout, a closed connection, the abort), which the connection then diagnoses.
 */
function hostError(call: ExtensionCall, err: unknown): unknown {
  if (err instanceof McpRequestError) return err;
  const answered = jsonRpcError(err);
  if (answered?.code === ProtocolErrorCode.UrlElicitationRequired && Array.isArray(answered.data?.elicitations)) {
    // The person is sent to the page first, as for a plain call (tool-call.ts).
    return new UrlElicitationRequiredError(answered.data.elicitations as ElicitRequestURLParams[], answered.message);
  }
  if (answered) return new McpRequestError('server-error', `server ${call.server} answered error ${answered.code}: ${answered.message}`, { cause: err });
  let e: unknown = err;
  for (let depth = 0; (e instanceof DispatchError || e instanceof TaskFailedError) && e.cause !== undefined && depth < 5; depth++) e = e.cause;
  return e;
}
