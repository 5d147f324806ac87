/**
 * Task-augmented sampling and elicitation (MCP 2025-11-25): a server may send either with `task: { ttl }`; the host
 * then answers at once with a task, asks the person and runs the work as it would for the plain request (the same
 * handlers, so the same card, the same form and the same limits per server), and answers the server's tasks/get,
 * tasks/result, tasks/list and tasks/cancel about it. The lifecycle (the task store, expiry, status notifications,
 * cancellation) is ext-tasks' receiver; this file decides what a task runs and how much a server may keep.
 *
 * The 2026-07-28 era sends no requests from server to client (a server answers `input_required` instead, and the
 * SDK asks the plain handlers), and its tasks are the io.modelcontextprotocol/tasks extension, for tool calls: the
 * receiver is bound in both eras but only a 2025-11-25 session ever reaches it.
 */
import { CreateMessageRequestParamsSchema, ElicitRequestParamsSchema } from '@modelcontextprotocol/core';
import {
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type Client,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type ElicitRequestParams,
  type JSONRPCRequest,
  type Result,
} from '@modelcontextprotocol/client';
import { bindTaskReceiver, type TaskReceiverBinding, type TaskReceiverCallback } from '@modelcontextprotocol/ext-tasks/receiver';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import type { ClientHandlers, ServerLogSink } from './client-handlers';

/**
 * How long a task lives from its creation, its result kept included, whatever the server asks (receivers may
 * override the ttl): long enough for a person to answer a card, short enough that a server's forgotten tasks go.
 */
const DEFAULT_TASK_TTL_MS = 10 * 60_000;
/**
 * Tasks one session may hold, finished ones included (the oldest finished one makes room); past that, while all
 * are still running, a new one is refused. The asks themselves are bounded lower, by their handlers' limits.
 */
const MAX_TASKS_PER_SESSION = 32;
/** What the host suggests a server waits between two tasks/get. */
const POLL_INTERVAL_MS = 1_000;

export interface ClientTaskOptions {
  server: string;
  /** A task's life from its creation; DEFAULT_TASK_TTL_MS when not given. */
  ttlMs?: number;
  sink?: ServerLogSink;
}

type Methods = { sampling: boolean; elicitation: boolean };

function methodsFor(handlers: ClientHandlers): Methods {
  return { sampling: Boolean(handlers.sampling), elicitation: (handlers.elicitation?.modes.length ?? 0) > 0 };
}

/**
 * The `tasks` capability for these handlers: the host runs as tasks exactly the asks it answers, and lets a
 * server list and cancel them. An empty object without any: it still calls tools as tasks (tasks.ts).
 */
export function clientTaskCapabilities(handlers: ClientHandlers): NonNullable<ClientCapabilities['tasks']> {
  const m = methodsFor(handlers);
  if (!m.sampling && !m.elicitation) return {};
  return {
    list: {},
    cancel: {},
    requests: {
      ...(m.sampling ? { sampling: { createMessage: {} } } : {}),
      ...(m.elicitation ? { elicitation: { create: {} } } : {}),
    },
  };
}

/**
 * Lets `client` take sampling and elicitation as tasks, run by `handlers`. Call before connect, after the plain
 * handlers are set (a request without `task` still goes to them). Undefined when there is nothing to run; else
 * close the binding when the session ends, which withdraws every ask still waiting.
 */
export function bindClientTasks(client: Client, handlers: ClientHandlers, o: ClientTaskOptions): TaskReceiverBinding | undefined {
  const m = methodsFor(handlers);
  if (!m.sampling && !m.elicitation) return undefined;
  const sampling = handlers.sampling;
  const elicitation = handlers.elicitation;
  return bindTaskReceiver(client, {
    methods: { 'sampling/createMessage': m.sampling, 'elicitation/create': m.elicitation },
    ...(sampling ? { sampling: task((params, signal) => sampling(samplingParams(params), { server: o.server, signal })) } : {}),
    ...(elicitation ? { elicitation: task((params, signal) => elicitation.handle(elicitationParams(params), { server: o.server, signal })) } : {}),
    ttlMs: o.ttlMs ?? DEFAULT_TASK_TTL_MS,
    pollIntervalMs: POLL_INTERVAL_MS,
    maxTasks: MAX_TASKS_PER_SESSION,
    onError: (err, ctx) => {
      if (ctx.lateAfter) return;
      o.sink?.log('info', `${ctx.method}${ctx.taskId ? ` (task ${ctx.taskId})` : ''}: ${err instanceof Error ? err.message : String(err)}`);
    },
  });
}

/** A task's work: the handler's result, marked as the task's (the spec asks this of what tasks/result answers). */
function task(run: (params: Record<string, unknown>, signal: AbortSignal) => Promise<Result>): TaskReceiverCallback {
  return async (request, ctx) => {
    const { task: _augmentation, ...params } = request.params as Record<string, unknown>;
    const result = await run(params, ctx.signal);
    return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId: ctx.taskId } } } as Record<string, JsonValue>;
  };
}

/**
 * The receiver hands over the params as they came, not through the SDK's checks of a plain request: checked here
 * against the same schemas, so a task asks nothing a plain request could not. (The 2026-07-28 Tasks extension's
 * input requests come the same way: task-ext/extension-session.ts.)
 */
export function samplingParams(params: Record<string, unknown>): CreateMessageRequestParams {
  const parsed = CreateMessageRequestParamsSchema.safeParse(params);
  if (!parsed.success) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid sampling request: ${parsed.error.message}`);
  return parsed.data;
}

export function elicitationParams(params: Record<string, unknown>): ElicitRequestParams {
  const parsed = ElicitRequestParamsSchema.safeParse(params);
  if (!parsed.success) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid elicitation request: ${parsed.error.message}`);
  return parsed.data.mode === undefined ? { ...parsed.data, mode: 'form' } : parsed.data;
}

type RequestHandler<C> = (request: JSONRPCRequest, ctx: C) => Promise<Result>;

const TASK_METHODS = new Set(['tasks/get', 'tasks/result', 'tasks/cancel', 'tasks/list']);

/**
 * The spec's error codes for a server's questions about tasks, which the receiver throws as plain errors (the SDK
 * would send -32603): a task id this session does not know (never made, expired, another server's) and a cursor
 * it never gave are -32602, and so is cancelling a task that has already finished.
 */
export function withTaskErrorCodes<C>(method: string, handler: RequestHandler<C>): RequestHandler<C> {
  if (!TASK_METHODS.has(method)) return handler;
  return async (request, ctx) => {
    let result: Result;
    try {
      result = await handler(request, ctx);
    } catch (err) {
      throw invalidParams(method, err);
    }
    const status = (result as { status?: unknown }).status;
    if (method === 'tasks/cancel' && (status === 'completed' || status === 'failed')) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task: it has already ${status === 'completed' ? 'completed' : 'failed'}`);
    }
    return result;
  };
}

/** Only the receiver's own refusals: a task's failure (tasks/result) keeps the error its ask ended with. */
function invalidParams(method: string, err: unknown): unknown {
  if (!(err instanceof Error) || typeof (err as { code?: unknown }).code === 'number') return err;
  const refusal = /^(Unknown or expired task|A string taskId is required|Invalid or stale tasks\/list cursor|tasks\/list cursor must be)/.test(err.message);
  return method !== 'tasks/result' || refusal ? new ProtocolError(ProtocolErrorCode.InvalidParams, err.message) : err;
}
