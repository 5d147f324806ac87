import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ListRootsRequestSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type CompleteRequestParams,
  type CompleteResult,
  type LoggingLevel,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Carrier, TransportKind } from './transport/carrier';
import { clientCapabilities, type ServerLogSink } from './client/client-handlers';
import type { ConnectionEvents, ConnectionOptions } from './connection-types';
import { installClientHandlers } from './client/client-requests';
import { McpRequestError, McpStartError, ServerExited, describeExit, seconds } from './errors';
import { diagnoseRequestFailure, diagnoseStartFailure } from './diagnose';
import type { ExitInfo } from './transport/stdio-transport';
import { configProblem } from './config-check';
import { GuardedTransport } from './transport/guarded-transport';
import { carrierFor } from './transport/launch';
import { LogFlood } from './transport/log-flood';
import { ServerLists } from './server-lists';
import { SessionEnd } from './session-end';
import { runAsTask } from './hub/tool-names';
import { callToolAsTask } from './tasks';
import { TypedEmitter } from './typed-emitter';
import type { CallOptions, ServerConfig, ServerState, ServerStatus } from './types';
import { messageOf } from '../../common/error-message';

export type { ConnectionEvents, ConnectionOptions } from './connection-types';

const MAX_LOGGED_ERRORS = 50;

/**
 * One MCP server's session: initialize, its lists, calls with timeouts and cancellation, notifications.
 * How the session is carried (a child process, an HTTP endpoint) is its Carrier's business (launch.ts).
 */
export class McpConnection extends TypedEmitter<ConnectionEvents> {
  readonly name: string;
  private readonly lists: ServerLists;
  private currentState: ServerState = 'stopped';
  private errorText: string | undefined;
  private client: Client | undefined;
  private carrier: Carrier | undefined;
  private closing = false;
  private started = false;
  /** Fails every waiting request with ServerExited when the process dies or the HTTP session is lost. */
  private readonly sessionEnd = new SessionEnd();
  private roots: string[];
  private loggedErrors = 0;
  private readonly sink: ServerLogSink | undefined;
  private logLevel: LoggingLevel | undefined;
  private logFlood: LogFlood | undefined;

  constructor(
    readonly config: ServerConfig,
    private readonly options: ConnectionOptions = {},
  ) {
    super();
    this.name = config.name;
    this.roots = options.roots ?? [];
    this.lists = new ServerLists({
      client: () => this.client,
      closing: () => this.closing,
      untilEnded: (p) => this.sessionEnd.race(p),
      timeoutMs: options.requestTimeoutMs ?? 30_000,
      log: (line) => this.log(line),
      changed: () => this.emit('change'),
    });
    this.sink = options.handlers?.logging?.sink(config.name);
    this.logLevel = options.handlers?.logging?.level;
  }

  get tools(): Tool[] {
    return this.lists.tools;
  }

  get resources(): Resource[] {
    return this.lists.resources;
  }

  get resourceTemplates(): ResourceTemplate[] {
    return this.lists.resourceTemplates;
  }

  get prompts(): Prompt[] {
    return this.lists.prompts;
  }

  get state(): ServerState {
    return this.currentState;
  }

  get error(): string | undefined {
    return this.errorText;
  }

  get pid(): number | undefined {
    return this.carrier?.pid;
  }

  /** The last few KiB the server wrote to stderr (for an HTTP server: the last things that went wrong). */
  stderr(maxChars = 2000): string {
    return this.carrier?.tail(maxChars) ?? '';
  }

  /** Bytes of stderr held in memory (bounded by `stderrBytes`) and seen in total. */
  stderrBytes(): { held: number; total: number } {
    return this.carrier?.tailBytes() ?? { held: 0, total: 0 };
  }

  /** How the session is carried: a process's stdio, streamable HTTP, or HTTP+SSE (configured or fallen back to). */
  get transportKind(): TransportKind {
    return this.carrier?.kind ?? (this.config.transport === 'http' ? 'streamable-http' : this.config.transport);
  }

  status(): ServerStatus {
    const info = this.client?.getServerVersion();
    return {
      name: this.name,
      state: this.currentState,
      error: this.errorText,
      tools: this.tools,
      resources: this.resources,
      resourceTemplates: this.resourceTemplates,
      prompts: this.prompts,
      pid: this.currentState === 'ready' || this.currentState === 'starting' ? this.pid : undefined,
      serverVersion: info ? `${info.name} ${info.version}` : undefined,
      transport: this.transportKind,
      instructions: this.client?.getInstructions(),
      tasks: this.supports('tasks'),
    };
  }

  /**
   * Spawns the server (or reaches its URL), initializes and lists what it offers. Resolves once `ready`; rejects with an
   * McpStartError (and the state becomes `error`) with a diagnosis. One start per connection.
   */
  async start(): Promise<void> {
    if (this.started) throw new Error(`connection to ${this.name} was already started; make a new one`);
    this.started = true;
    this.setState('starting');
    const problem = configProblem(this.config);
    if (problem) {
      this.errorText = `server ${this.name}: ${problem}`;
      this.setState('error');
      throw new McpStartError('spawn', this.errorText);
    }
    const initMs = this.options.initializeTimeoutMs ?? 15_000;
    const flood = new LogFlood({ ...this.options.logBudget, report: (n, rate) => this.log(`(${n} log message${n === 1 ? '' : 's'} dropped: the server sent more than ${rate.toLocaleString('en-US')} a second)`) });
    this.logFlood = flood;
    const carrier = carrierFor(this.config, {
      dropsLine: (line) => flood.dropsLine(line),
      maxMessageBytes: this.options.maxMessageBytes,
      stderrBytes: this.options.stderrBytes,
      closeGraceMs: this.options.closeGraceMs,
      reconnection: this.options.reconnection,
      oauth: this.options.oauth,
    });
    this.carrier = carrier;
    carrier.onend = (end) => this.onEnd(end);
    const sink = this.sink;
    if (sink) carrier.onstderrline = (line) => sink.log('info', `[stderr] ${line}`);
    const client = this.makeClient();
    this.client = client;
    try {
      await this.sessionEnd.race(client.connect(new GuardedTransport(carrier.transport, flood), { timeout: initMs }));
    } catch (err) {
      if (this.closing) throw this.closedWhileStarting();
      const failure = this.startFailure(err, initMs);
      this.errorText = failure.message;
      this.setState('error');
      await this.shutdown();
      throw failure;
    }
    await Promise.all([this.refreshAll(), this.applyLogLevel()]);
    if (this.closing) throw this.closedWhileStarting();
    const ended = carrier.ended;
    if (ended) {
      // It died while we listed what it offers.
      const failure = this.startFailure(ended, initMs);
      this.errorText = failure.message;
      this.setState('error');
      throw failure;
    }
    if (this.currentState === 'starting') this.setState('ready');
  }

  async callTool(name: string, args: Record<string, unknown> = {}, opts: CallOptions = {}): Promise<CallToolResult> {
    const client = this.readyClient();
    const asTask = runAsTask(this.tools.find((t) => t.name === name), this.supports('tasks'));
    if (asTask === undefined) {
      throw new McpRequestError('protocol', `tool "${name}" of server ${this.name} runs only as a task (execution.taskSupport "required"), but the server does not declare tasks for tools/call`);
    }
    const timeout = opts.timeoutMs ?? this.options.callTimeoutMs ?? 60_000;
    // A server that keeps reporting progress must still end: the whole call has a limit too. Enforced here
    // through the signal rather than the SDK's maxTotalTimeout, which (SDK 1.32) rejects without telling the
    // server (no notifications/cancelled) and is checked only when progress arrives.
    const totalMs = opts.maxTotalTimeoutMs ?? this.options.callTotalTimeoutMs ?? 600_000;
    const total = new AbortController();
    const timer = setTimeout(() => total.abort(), totalMs);
    // The caller's signal aborts the call through a listener taken off at the end, not AbortSignal.any, which
    // cost 7 us a call more (10.5 against 3.8, with the SDK's own listener) and ties every call to the turn's signal.
    const stop = (): void => total.abort(opts.signal?.reason);
    if (opts.signal?.aborted) stop();
    else opts.signal?.addEventListener('abort', stop, { once: true });
    const signal = total.signal;
    const params = opts.meta ? { name, arguments: args, _meta: opts.meta } : { name, arguments: args };
    const request: RequestOptions = {
      signal,
      timeout,
      resetTimeoutOnProgress: true,
      // Always asked for: a long tool that reports progress is then never cut off by the timeout.
      onprogress: (p) => opts.onProgress?.(p.progress, p.total, p.message),
    };
    try {
      if (asTask) {
        return await callToolAsTask({
          client,
          server: this.name,
          params,
          signal,
          idleMs: timeout,
          requestTimeoutMs: this.options.requestTimeoutMs ?? 30_000,
          onProgress: opts.onProgress,
          untilEnded: (p) => this.sessionEnd.race(p),
        });
      }
      const result = await this.sessionEnd.race(client.callTool(params, undefined, request));
      return result as CallToolResult;
    } catch (err) {
      if (total.signal.aborted && !opts.signal?.aborted) {
        throw new McpRequestError(
          'timeout',
          `tool "${name}" on server ${this.name} did not finish within ${seconds(totalMs)}, its time limit whatever progress it reports; it was cancelled`,
          { cause: err },
        );
      }
      throw this.requestFailure(err, `tool "${name}"`, 'the call', timeout, opts.signal);
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', stop);
    }
  }

  async readResource(uri: string, opts: CallOptions = {}): Promise<ReadResourceResult> {
    const client = this.readyClient();
    const timeout = opts.timeoutMs ?? this.options.requestTimeoutMs ?? 30_000;
    try {
      return await this.sessionEnd.race(client.readResource({ uri }, { signal: opts.signal, timeout }));
    } catch (err) {
      throw this.requestFailure(err, `resource ${uri}`, 'the read', timeout, opts.signal);
    }
  }

  async getPrompt(name: string, args: Record<string, string> = {}, opts: CallOptions = {}): Promise<GetPromptResult> {
    const client = this.readyClient();
    const timeout = opts.timeoutMs ?? this.options.requestTimeoutMs ?? 30_000;
    try {
      return await this.sessionEnd.race(client.getPrompt({ name, arguments: args }, { signal: opts.signal, timeout }));
    } catch (err) {
      throw this.requestFailure(err, `prompt "${name}"`, 'the request', timeout, opts.signal);
    }
  }

  /** Asks to be told (`notifications/resources/updated`, the 'resourceUpdated' event) when a resource changes. */
  async subscribeResource(uri: string, opts: CallOptions = {}): Promise<void> {
    await this.simpleRequest(`subscribing to ${uri}`, opts, (client, o) => client.subscribeResource({ uri }, o));
  }

  async unsubscribeResource(uri: string, opts: CallOptions = {}): Promise<void> {
    await this.simpleRequest(`unsubscribing from ${uri}`, opts, (client, o) => client.unsubscribeResource({ uri }, o));
  }

  /** The server's suggestions for a prompt argument or a template variable (`completion/complete`). */
  async complete(params: CompleteRequestParams, opts: CallOptions = {}): Promise<CompleteResult> {
    return this.simpleRequest('completion', opts, (client, o) => client.complete(params, o));
  }

  /** Whether the server declared what a feature needs (e.g. resources.subscribe, completions, tasks for tools/call). */
  supports(feature: 'subscribe' | 'completions' | 'logging' | 'tasks'): boolean {
    const caps = this.client?.getServerCapabilities();
    if (feature === 'subscribe') return caps?.resources?.subscribe === true;
    if (feature === 'tasks') return Boolean(caps?.tasks?.requests?.tools?.call);
    return Boolean(caps?.[feature]);
  }

  /** The level the server is asked to log at (`logging/setLevel`), now and after every restart. */
  async setLogLevel(level: LoggingLevel | undefined): Promise<void> {
    this.logLevel = level;
    if (this.currentState === 'ready') await this.applyLogLevel();
  }

  /** Replaces the roots offered to the server and tells it (notifications/roots/list_changed). */
  async setRoots(dirs: string[]): Promise<void> {
    this.roots = [...dirs];
    if (this.currentState === 'ready') await this.client?.sendRootsListChanged().catch(() => undefined);
  }

  /** Re-lists tools, resources, resource templates and prompts (what the server declares). */
  refreshAll(): Promise<void> {
    return this.lists.refreshAll();
  }

  /** Ends the session and the process (stdin EOF, SIGTERM, SIGKILL); resolves once it has exited. */
  async close(): Promise<void> {
    this.closing = true;
    await this.shutdown();
    if (this.currentState !== 'error') this.setState('stopped');
    this.removeAllListeners();
  }

  private async applyLogLevel(): Promise<void> {
    const client = this.client;
    const level = this.logLevel;
    if (!client || !level || !client.getServerCapabilities()?.logging) return;
    const timeout = this.options.requestTimeoutMs ?? 30_000;
    try {
      await this.sessionEnd.race(client.setLoggingLevel(level, { timeout }));
    } catch (err) {
      if (!(err instanceof ServerExited)) this.log(`setting the log level to ${level} failed: ${messageOf(err)}`);
    }
  }

  private async simpleRequest<T>(what: string, opts: CallOptions, send: (client: Client, o: RequestOptions) => Promise<T>): Promise<T> {
    const client = this.readyClient();
    const timeout = opts.timeoutMs ?? this.options.requestTimeoutMs ?? 30_000;
    try {
      return await this.sessionEnd.race(send(client, { signal: opts.signal, timeout }));
    } catch (err) {
      throw this.requestFailure(err, what, 'the request', timeout, opts.signal);
    }
  }

  private makeClient(): Client {
    const handlers = this.options.handlers ?? {};
    const client = new Client(this.options.clientInfo ?? { name: 'mcp-agent', version: '0.1.0' }, {
      capabilities: clientCapabilities(handlers),
    });
    installClientHandlers(client, this.name, handlers, this.sink);
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => this.emit('resourceUpdated', n.params.uri));
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: this.roots.map((dir) => ({ uri: pathToFileURL(dir).href, name: basename(dir) || dir })),
    }));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void this.lists.refresh('tools'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void this.lists.refresh('resources'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => void this.lists.refresh('prompts'));
    // Non-JSON stdout lines and the like land here; the session goes on.
    client.onerror = (err) => {
      if (this.loggedErrors > MAX_LOGGED_ERRORS) return;
      this.loggedErrors++;
      this.log(this.loggedErrors > MAX_LOGGED_ERRORS ? 'too many errors; no more are logged' : messageOf(err));
    };
    return client;
  }

  private readyClient(): Client {
    if (this.currentState !== 'ready' || !this.client) {
      const why = this.currentState === 'error' && this.errorText ? `: ${this.errorText}` : '';
      throw new McpRequestError('not-ready', `server ${this.name} is not ready (${this.currentState})${why}`);
    }
    return this.client;
  }

  /** The process exited, or its stdout closed, or the HTTP session was lost: every pending request fails now. */
  private onEnd(end: ServerExited): void {
    this.sessionEnd.end(end);
    if (this.closing) return;
    const info: ExitInfo = end.info;
    const message = end.why ?? this.explain(`server ${this.name} exited (${describeExit(info)})`);
    if (this.currentState === 'ready') {
      // 'crash' first, so a hub schedules its restart before anyone sees a bare `error`.
      this.emit('crash', info, message);
      this.errorText = message;
      this.setState('error');
      void this.shutdown();
    }
    // While starting, start() reports the end itself.
  }

  private explain(message: string): string {
    return this.carrier ? this.carrier.explain(message) : message;
  }

  private closedWhileStarting(): McpStartError {
    return new McpStartError('protocol', `server ${this.name} was closed while starting`);
  }

  private startFailure(err: unknown, initMs: number): McpStartError {
    const carrier = this.carrier;
    if (!carrier) return new McpStartError('spawn', `server ${this.name}: ${messageOf(err)}`);
    return diagnoseStartFailure(err, { server: this.name, initMs, carrier });
  }

  private requestFailure(err: unknown, what: string, during: string, timeoutMs: number, signal?: AbortSignal): McpRequestError {
    return diagnoseRequestFailure(err, { server: this.name, what, during, timeoutMs, signal, explain: (m) => this.explain(m) });
  }

  private async shutdown(): Promise<void> {
    const client = this.client;
    const carrier = this.carrier;
    // Client.close closes the transport; the carrier's close then waits until it is gone (a process: EOF, SIGTERM, SIGKILL, exit).
    await client?.close().catch(() => undefined);
    await carrier?.close().catch(() => undefined);
    this.logFlood?.close();
  }

  private setState(state: ServerState): void {
    if (state !== 'error') this.errorText = undefined;
    this.currentState = state;
    this.emit('change');
  }

  private log(line: string): void {
    this.options.log?.(this.name, line);
    this.sink?.log('warn', line);
  }
}

