import {
  ProtocolError,
  ProtocolErrorCode,
  UrlElicitationRequiredError,
  type CallToolResult,
  type Client,
  type ElicitRequestURLParams,
  type Progress,
  type Tool,
} from '@modelcontextprotocol/client';
import type { ElicitationHandler } from '../client/client-handlers';
import { McpRequestError, seconds } from '../session/errors';
import { runAsTask } from '../hub/tool-names';
import { callToolAsTask } from './tasks';
import { callToolThroughExtension } from '../task-ext/extension-call';
import { TASKS_EXTENSION, type ToolTaskSession } from '../task-ext/extension-session';
import type { RawRequests } from '../task-ext/raw-requests';
import type { CallOptions } from '../types';
import { messageOf } from '../../../node/error-message';
import { deadline } from '../../../node/deadline';

/** What a tool call needs of its session (connection.ts). */
export interface ToolCallSession {
  server: string;
  client: Client;
  supportsTasks: boolean;
  /** The Tasks extension of a 2026-07-28 session whose server declares it: every call goes through it. */
  taskExtension: { tasks: ToolTaskSession; raw: RawRequests } | undefined;
  callTimeoutMs: number;
  callTotalTimeoutMs: number;
  requestTimeoutMs: number;
  /** Keys the request's `_meta` carries besides the caller's (the log level, in the 2026-07-28 era). */
  meta(): Record<string, unknown> | undefined;
  untilEnded<T>(p: Promise<T>): Promise<T>;
  followTask(taskId: string, onProgress: (progress: Progress) => void): () => void;
  failure(err: unknown, what: string, during: string, timeoutMs: number, signal?: AbortSignal): McpRequestError;
  /** The front end's URL question, when it can ask one. */
  elicitation: ElicitationHandler | undefined;
  /** Resolves when the server says the URL elicitation with this id is complete (2025-11-25), or at `signal`. */
  elicitationComplete(elicitationId: string, signal: AbortSignal): Promise<void>;
}

/**
 * One tool call with the host's limits: silent for at most `timeoutMs` (progress starts it again), whole for
 * at most the total limit, cancelled by the caller's signal; run as a task where the tool asks for it (2025-11-25)
 * or the server decides to (the 2026-07-28 Tasks extension, when the server declares it). A
 * server's `-32042` "URL elicitation required" (2025-11-25) opens the person's URL question, and the call is
 * made once more when they finished there. `tool` is the definition the caller already resolved (undefined: a
 * name the server did not list): the call path looks a tool up once, at its start, never again here.
 */
export async function callTool(
  session: ToolCallSession,
  name: string,
  tool: Tool | undefined,
  args: Record<string, unknown>,
  opts: CallOptions,
): Promise<CallToolResult> {
  const asTask = runAsTask(tool, session.supportsTasks);
  if (asTask === undefined) {
    throw new McpRequestError(
      'protocol',
      `tool "${name}" of server ${session.server} runs only as a task (execution.taskSupport "required"), but the server does not declare tasks for tools/call`,
    );
  }
  const timeout = opts.timeoutMs ?? session.callTimeoutMs;
  // A server that keeps reporting progress must still end: the whole call has a limit too, enforced through
  // the signal (the SDK's maxTotalTimeout is checked only when progress arrives).
  const totalMs = opts.maxTotalTimeoutMs ?? session.callTotalTimeoutMs;
  const total = new AbortController();
  const timer = setTimeout(() => total.abort(`the call took longer than ${seconds(totalMs)} in all`), totalMs);
  // The caller's signal aborts the call through a listener taken off at the end, not AbortSignal.any, which
  // cost 7 us a call more and ties every call to the turn's signal.
  const stop = (): void => total.abort(cancelReason(opts.signal?.reason));
  if (opts.signal?.aborted) stop();
  else opts.signal?.addEventListener('abort', stop, { once: true });
  const signal = total.signal;
  const meta = { ...session.meta(), ...opts.meta };
  const params = Object.keys(meta).length > 0 ? { name, arguments: args, _meta: meta } : { name, arguments: args };
  try {
    if (asTask && !session.taskExtension) {
      return await callToolAsTask({
        client: session.client,
        server: session.server,
        params,
        signal,
        idleMs: timeout,
        requestTimeoutMs: session.requestTimeoutMs,
        onProgress: opts.onProgress,
        untilEnded: (p) => session.untilEnded(p),
        followProgress: (taskId, onProgress) => session.followTask(taskId, onProgress),
      });
    }
    const request = {
      signal,
      timeout,
      resetTimeoutOnProgress: true,
      // Always asked for: a long tool that reports progress is then never cut off by the timeout.
      onprogress: (p: Progress) => opts.onProgress?.(p.progress, p.total, p.message),
      // Mcp-Param-* headers and output checks from the definition the host listed (the SDK's own list may be empty).
      ...(tool ? { toolDefinition: tool } : {}),
    };
    const extension = session.taskExtension;
    const call = (): Promise<CallToolResult> =>
      extension
        ? // The server may answer any call with a task, which the SDK's own tools/call cannot take.
          callToolThroughExtension({
            ...extension,
            server: session.server,
            name,
            args,
            tool,
            meta: Object.keys(meta).length > 0 ? meta : undefined,
            signal,
            idleMs: timeout,
            onProgress: opts.onProgress,
            untilEnded: (p) => session.untilEnded(p),
          })
        : session.untilEnded(session.client.callTool(params, request));
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof UrlElicitationRequiredError) || signal.aborted) throw err;
      const finished = await visitUrls(session, name, err.elicitations, signal, timeout);
      return finished === true ? await call() : finished;
    }
  } catch (err) {
    if (total.signal.aborted && !opts.signal?.aborted) {
      throw new McpRequestError(
        'timeout',
        `tool "${name}" on server ${session.server} did not finish within ${seconds(totalMs)}, its time limit whatever progress it reports; it was cancelled`,
        {
          cause: err,
        },
      );
    }
    if (!session.taskExtension && needsTaskExtension(err)) {
      throw new McpRequestError(
        'server-error',
        `tool "${name}" of server ${session.server} runs only as a task (the server answered -32021, naming the Tasks extension), but the server does not declare the extension, so the host cannot take its task`,
        { cause: err },
      );
    }
    throw session.failure(err, `tool "${name}"`, 'the call', timeout, opts.signal);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', stop);
  }
}

/**
 * A 2026-07-28 server that would run the call as a task, for a client that did not declare the Tasks extension on
 * it: the era has no per-tool `taskSupport` to tell beforehand, so this answer is where the host learns it.
 */
function needsTaskExtension(err: unknown): boolean {
  if (!(err instanceof ProtocolError) || err.code !== ProtocolErrorCode.MissingRequiredClientCapability) return false;
  const required = (err.data as { requiredCapabilities?: { extensions?: Record<string, unknown> } } | undefined)?.requiredCapabilities;
  return required?.extensions?.[TASKS_EXTENSION] !== undefined;
}

/**
 * The person is asked to open each page the server needs them at (the same URL question a server's
 * elicitation asks); true once every one is done, else what to tell the model instead of the tool's result.
 */
async function visitUrls(
  session: ToolCallSession,
  name: string,
  elicitations: ElicitRequestURLParams[],
  signal: AbortSignal,
  timeoutMs: number,
): Promise<true | CallToolResult> {
  const pages = elicitations.map((e) => e.url).join(', ');
  const said = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });
  const ask = session.elicitation;
  if (!ask?.modes.includes('url')) {
    return said(
      `tool "${name}" on server ${session.server} needs the person to finish something in their browser first (${pages}), and this front end cannot open a page for them`,
    );
  }
  for (const e of elicitations) {
    let action: string;
    try {
      action = (await ask.handle({ ...e, mode: 'url' }, { server: session.server, signal })).action;
    } catch (err) {
      if (signal.aborted) throw err;
      return said(`tool "${name}" on server ${session.server} needs the person to open ${e.url} first, which could not be asked: ${messageOf(err)}`);
    }
    if (action !== 'accept')
      return said(`tool "${name}" on server ${session.server} needs the person to open ${e.url} first (${e.message}); they did not (${action})`);
  }
  const waited = deadline(timeoutMs, signal);
  try {
    await Promise.all(elicitations.map((e) => session.elicitationComplete(e.elicitationId, waited.signal)));
  } catch (err) {
    if (signal.aborted) throw err;
    return said(
      `the person opened ${pages} for tool "${name}" on server ${session.server}, which did not say they finished there within ${seconds(timeoutMs)}; call the tool again once they have`,
    );
  } finally {
    waited.clear();
  }
  return true;
}

/**
 * What a server is told of a cancel (`notifications/cancelled` carries it as text): the words of whoever stopped the
 * call, never JS text such as "AbortError: This operation was aborted" or "Error: ...".
 */
function cancelReason(reason: unknown): string {
  if (typeof reason === 'string' && reason.trim() !== '') return reason;
  if (reason instanceof Error && reason.name !== 'AbortError' && reason.message) return reason.message;
  return 'the call was stopped (it is no longer wanted)';
}
