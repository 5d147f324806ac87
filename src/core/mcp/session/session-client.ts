import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  Client,
  type ClientContext,
  type JSONRPCRequest,
  type Request,
  type RequestMethod,
  type RequestOptions,
  type Result,
  type ResultTypeMap,
  type StandardSchemaV1,
} from '@modelcontextprotocol/client';
import { clientCapabilities, type ClientHandlers, type ServerLogSink } from '../client/client-handlers';
import { installClientHandlers } from '../client/client-requests';
import type { TaskReceiverBinding } from '@modelcontextprotocol/ext-tasks/receiver';
import { bindClientTasks, withTaskErrorCodes } from '../client/client-tasks';
import type { ListKind } from '../requests/server-lists';
import { eraResultCheck, isResultSchema } from './result-check';

/** What a session's client reports to its connection. */
export interface SessionClientEvents {
  /** A list changed (`list_changed`, unsolicited in 2025-11-25, on a `subscriptions/listen` stream in 2026-07-28). */
  listChanged(kind: ListKind): void;
  resourceUpdated(uri: string): void;
  /** The roots offered now (asked by `roots/list`, or inside an `input_required` answer). */
  roots(): string[];
  /** The server says the person finished the URL elicitation with this id (2025-11-25). */
  elicitationComplete(elicitationId: string): void;
  /** Something went wrong beside any request (a line that is not JSON, an unknown answer). */
  error(err: Error): void;
}

export interface SessionClientOptions {
  clientInfo: { name: string; version: string };
  handlers: ClientHandlers;
  server: string;
  sink: ServerLogSink | undefined;
  events: SessionClientEvents;
  /** The life of a task-augmented sampling or elicitation request (client-tasks.ts). */
  taskTtlMs?: number;
}

/** The roots offered, as `roots/list` answers them (and a 2026-07-28 task's input request, task-ext/). */
export function rootEntries(dirs: string[]): Array<{ uri: string; name: string }> {
  return dirs.map((dir) => ({ uri: pathToFileURL(dir).href, name: basename(dir) || dir }));
}

/** Most pages of one list followed, as before the SDK aggregated them (paginate.ts). */
const MAX_LIST_PAGES = 1000;

/**
 * Most `input_required` rounds of one call. The SDK's 10 would end an orchestrator call whose sub-agent asks for
 * its tenth approval in one turn (each round there is one question to the person); this only stops a server that
 * never finishes.
 */
const MAX_INPUT_ROUNDS = 200;

/** The SDK's client, answering a server's questions about its tasks with the spec's error codes. */
class SessionClient extends Client {
  /** Sampling and elicitation asked as tasks: a 2025-11-25 thing, let go once the session is a 2026-07-28 one. */
  tasks: TaskReceiverBinding | undefined;

  override async connect(...args: Parameters<Client['connect']>): Promise<void> {
    await super.connect(...args);
    // A 2026-07-28 server asks in `input_required` answers, which the plain handlers fulfil: a `task` slipped into
    // one must not make a task that nobody can poll (there are no requests from server to client in that era).
    if (this.getProtocolEra() === 'modern') this.tasks?.close();
  }

  /**
   * A spec request asked without a result schema is checked against its era's, as the SDK checks it; the SDK would
   * first find out whether the era has one by parsing `undefined` against it and formatting the error, on every
   * request. Before an era is negotiated the SDK picks the codec by method (initialize, server/discover), so those
   * stay with it.
   */
  override request<M extends RequestMethod>(request: { method: M; params?: Record<string, unknown> }, options?: RequestOptions): Promise<ResultTypeMap[M]>;
  override request<T extends StandardSchemaV1>(request: Request, resultSchema: T, options?: RequestOptions): Promise<StandardSchemaV1.InferOutput<T>>;
  override request(request: Request, schemaOrOptions?: StandardSchemaV1 | RequestOptions, options?: RequestOptions): Promise<unknown> {
    if (isResultSchema(schemaOrOptions)) return super.request(request, schemaOrOptions, options);
    const check = this.getNegotiatedProtocolVersion() === undefined ? undefined : eraResultCheck(this._wireCodec(), request.method);
    if (check) return super.request(request, check, schemaOrOptions);
    return super.request(request as { method: RequestMethod }, schemaOrOptions);
  }

  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result> {
    return super._wrapHandler(method, withTaskErrorCodes(method, handler));
  }
}

/**
 * The SDK client of one session, with the host's answers wired in. It negotiates the era (`auto`: server/discover,
 * falling back to initialize; a remembered verdict skips that, see era-memory.ts), and the same handlers serve
 * both: a 2025-11-25 server asks for sampling, elicitation and roots with requests of its own, a 2026-07-28 one
 * answers `input_required` and the SDK asks the handlers, then calls again. A 2025-11-25 server may also ask as a
 * task: the same handlers run it (client-tasks.ts).
 */
export function makeSessionClient(o: SessionClientOptions): Client {
  const client = new SessionClient(o.clientInfo, {
    capabilities: clientCapabilities(o.handlers),
    versionNegotiation: { mode: 'auto' },
    listMaxPages: MAX_LIST_PAGES,
    inputRequired: { maxRounds: MAX_INPUT_ROUNDS },
  });
  installClientHandlers(client, o.server, o.handlers, o.sink, (id) => o.events.elicitationComplete(id));
  client.setRequestHandler('roots/list', () => ({ roots: rootEntries(o.events.roots()) }));
  client.setNotificationHandler('notifications/resources/updated', (n) => o.events.resourceUpdated(n.params.uri));
  client.setNotificationHandler('notifications/tools/list_changed', () => o.events.listChanged('tools'));
  client.setNotificationHandler('notifications/resources/list_changed', () => o.events.listChanged('resources'));
  client.setNotificationHandler('notifications/prompts/list_changed', () => o.events.listChanged('prompts'));
  // The tasks are the session's: another session (another server, this one restarted) cannot see them.
  const tasks = bindClientTasks(client, o.handlers, { server: o.server, ttlMs: o.taskTtlMs, sink: o.sink });
  client.tasks = tasks;
  if (tasks) client.onclose = () => tasks.close();
  client.onerror = (err) => o.events.error(err);
  return client;
}
