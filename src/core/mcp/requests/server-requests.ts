import type {
  CallToolResult,
  Client,
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  ReadResourceResult,
  RequestOptions,
  Tool,
} from '@modelcontextprotocol/client';
import type { ConnectionOptions } from '../session/connection-types';
import { callTool } from './tool-call';
import type { McpRequestError } from '../session/errors';
import type { LiveSession } from '../session/live-session';
import type { CallOptions } from '../types';

/** What the requests need of their connection. */
export interface RequestsHost {
  /** The session, or an McpRequestError when the server is not ready. */
  readySession(): LiveSession;
  listen(): LiveSession['listen'];
  envelopeMeta(): Record<string, unknown> | undefined;
  /** A request's limit when its caller gives none. */
  timeoutMs(): number;
  /** Fails with ServerExited when the session ends first. */
  untilEnded<T>(p: Promise<T>): Promise<T>;
  failure(err: unknown, what: string, during: string, timeoutMs: number, signal?: AbortSignal): McpRequestError;
  server: string;
  options: ConnectionOptions;
  /** The server's tools as listed, for a call by name. */
  tools(): Tool[];
  supports(feature: 'tasks'): boolean;
  /** Settles when the server says an elicitation it sent by URL is complete. */
  elicitationComplete(id: string, signal: AbortSignal): Promise<void>;
}

/**
 * A ready server's requests: tools/call (tool-call.ts), reading resources, getting prompts, resource subscriptions
 * and completions, each with a limit, ended with the session, and diagnosed when it fails.
 */
export class ServerRequests {
  constructor(private readonly host: RequestsHost) {}

  /** tools/call (tool-call.ts): the definition the hub resolved (no lookup here), or a name, looked up in this server's list. */
  async callTool(target: string | Tool, args: Record<string, unknown> = {}, opts: CallOptions = {}): Promise<CallToolResult> {
    const { client, taskExt, guarded } = this.host.readySession();
    const name = typeof target === 'string' ? target : target.name;
    const definition = typeof target === 'string' ? this.host.tools().find((t) => t.name === target) : target;
    return callTool(
      {
        server: this.host.server,
        client,
        supportsTasks: this.host.supports('tasks'),
        taskExtension: taskExt ? { tasks: taskExt, raw: guarded.raw } : undefined,
        callTimeoutMs: this.host.options.callTimeoutMs ?? 60_000,
        callTotalTimeoutMs: this.host.options.callTotalTimeoutMs ?? 600_000,
        requestTimeoutMs: this.host.options.requestTimeoutMs ?? 30_000,
        meta: () => this.host.envelopeMeta(),
        untilEnded: (p) => this.host.untilEnded(p),
        followTask: (taskId, onProgress) => guarded.followTask(taskId, onProgress),
        failure: (err, what, during, timeoutMs, signal) => this.host.failure(err, what, during, timeoutMs, signal),
        elicitation: this.host.options.handlers?.elicitation,
        elicitationComplete: (id, signal) => this.host.elicitationComplete(id, signal),
      },
      name,
      definition,
      args,
      opts,
    );
  }

  async readResource(uri: string, opts: CallOptions = {}): Promise<ReadResourceResult> {
    const meta = this.host.envelopeMeta();
    return this.request(`resource ${uri}`, opts, (client, o) => client.readResource(meta ? { uri, _meta: meta } : { uri }, o), 'the read');
  }

  async getPrompt(name: string, args: Record<string, string> = {}, opts: CallOptions = {}): Promise<GetPromptResult> {
    const meta = this.host.envelopeMeta();
    return this.request(`prompt "${name}"`, opts, (client, o) =>
      client.getPrompt(meta ? { name, arguments: args, _meta: meta } : { name, arguments: args }, o),
    );
  }

  /**
   * Asks to be told (`notifications/resources/updated`, the 'resourceUpdated' event) when a resource changes:
   * `resources/subscribe` in the 2025-11-25 era, a `subscriptions/listen` stream for it in 2026-07-28.
   */
  async subscribeResource(uri: string, opts: CallOptions = {}): Promise<void> {
    const listen = this.host.listen();
    if (listen) return this.request(`subscribing to ${uri}`, opts, () => listen.subscribe(uri));
    await this.request(`subscribing to ${uri}`, opts, (client, o) => client.subscribeResource({ uri }, o));
  }

  async unsubscribeResource(uri: string, opts: CallOptions = {}): Promise<void> {
    const listen = this.host.listen();
    if (listen) return this.request(`unsubscribing from ${uri}`, opts, () => listen.unsubscribe(uri));
    await this.request(`unsubscribing from ${uri}`, opts, (client, o) => client.unsubscribeResource({ uri }, o));
  }

  /** The server's suggestions for a prompt argument or a template variable (`completion/complete`). */
  async complete(params: CompleteRequestParams, opts: CallOptions = {}): Promise<CompleteResult> {
    return this.request('completion', opts, (client, o) => client.complete(params, o));
  }

  private async request<T>(what: string, opts: CallOptions, send: (client: Client, o: RequestOptions) => Promise<T>, during = 'the request'): Promise<T> {
    const { client } = this.host.readySession();
    const timeout = opts.timeoutMs ?? this.host.timeoutMs();
    try {
      return await this.host.untilEnded(send(client, { signal: opts.signal, timeout }));
    } catch (err) {
      throw this.host.failure(err, what, during, timeout, opts.signal);
    }
  }
}
