import type {
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  PriorDiscovery,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Tool,
} from '@modelcontextprotocol/client';
import type { TransportKind } from '../transport/carrier';
import type { ServerLogSink } from '../client/client-handlers';
import type { ConnectionEvents, ConnectionOptions } from './connection-types';
import type { ProtocolEra } from '../era/era-memory';
import { openInEra } from '../era/era-choice';
import { envelopeMeta, probeMeta } from '../era/request-meta';
import { McpRequestError, McpStartError, type ServerExited, describeExit } from './errors';
import { diagnoseRequestFailure, diagnoseStartFailure, slowProbeFailure } from './diagnose';
import { connectionStatus } from './connection-status';
import { ServerRequests } from '../requests/server-requests';
import type { ExitInfo } from '../transport/stdio-transport';
import { configProblem } from '../config/config-check';
import { applyLogLevel, closeSession, openEraExtras, sessionSupports, type LiveSession, type ServerFeature } from './live-session';
import { ServerLists } from '../requests/server-lists';
import { SessionEnd } from './session-end';
import { sessionParts } from './session-parts';
import { CompletionWaits } from '../era/completion-waits';
import { TypedEmitter } from '../typed-emitter';
import type { CallOptions, ServerConfig, ServerState, ServerStatus } from '../types';
import { messageOf } from '../../../node/error-message';

export type { ConnectionEvents, ConnectionOptions } from './connection-types';

const MAX_LOGGED_ERRORS = 50;

/**
 * One MCP server's session: the era negotiated (2026-07-28 where the server speaks it, else 2025-11-25, and
 * remembered for the next start, era/era-memory.ts), its lists, calls with timeouts and cancellation,
 * notifications. How the session is carried (a child process, an HTTP endpoint) is its Carrier's business
 * (launch.ts).
 */
export class McpConnection extends TypedEmitter<ConnectionEvents> {
  readonly name: string;
  private readonly lists: ServerLists;
  private currentState: ServerState = 'stopped';
  private errorText: string | undefined;
  /** The session's parts, from its first open on (kept after it ends, for what the server said). */
  private session: LiveSession | undefined;
  private closing = false;
  private started = false;
  /** Fails every waiting request with ServerExited when the process dies or the HTTP session is lost. */
  private sessionEnd = new SessionEnd();
  private roots: string[];
  private loggedErrors = 0;
  private readonly sink: ServerLogSink | undefined;
  private logLevel: LoggingLevel | undefined;
  private readonly completions = new CompletionWaits();
  /** Resources, prompts, subscriptions and completions (server-requests.ts). */
  private readonly requests: ServerRequests;
  /** The last open asked the era (server/discover), and the server exited before answering (era-choice.ts). */
  private exitedWhenAsked = false;

  constructor(
    readonly config: ServerConfig,
    private readonly options: ConnectionOptions = {},
  ) {
    super();
    this.name = config.name;
    this.roots = options.roots ?? [];
    this.lists = new ServerLists({
      client: () => this.session?.client,
      closing: () => this.closing,
      untilEnded: (p) => this.sessionEnd.race(p),
      timeoutMs: options.requestTimeoutMs ?? 30_000,
      log: (line) => this.log(line),
      changed: () => this.emit('change'),
      watched: (kind) => this.session?.listen?.watches(kind) ?? false,
    });
    this.requests = new ServerRequests({
      readySession: () => this.readySession(),
      listen: () => this.session?.listen,
      envelopeMeta: () => envelopeMeta(this.era, this.logLevel, this.supports('logging')),
      timeoutMs: () => this.options.requestTimeoutMs ?? 30_000,
      untilEnded: (p) => this.sessionEnd.race(p),
      failure: (err, what, during, timeoutMs, signal) => this.requestFailure(err, what, during, timeoutMs, signal),
      server: this.name,
      options,
      tools: () => this.tools,
      supports: (feature) => this.supports(feature),
      elicitationComplete: (id, signal) => this.completions.wait(id, signal),
    });
    this.sink = options.handlers?.logging?.sink(config.name);
    this.logLevel = options.handlers?.logging?.level;
  }

  get tools(): Tool[] {
    return this.lists.tools;
  }

  /** Its tools whose inputSchema is invalid, by name, with why: never offered to the model. */
  get invalidSchemas(): ReadonlyMap<string, string> {
    return this.lists.invalidSchemas;
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
    return this.session?.carrier.pid;
  }

  /** The protocol era of the session once it is up: `modern` (2026-07-28) or `legacy` (2025-11-25 and before). */
  get era(): ProtocolEra | undefined {
    return this.session?.client.getProtocolEra();
  }

  /** The last few KiB the server wrote to stderr (for an HTTP server: the last things that went wrong). */
  stderr(maxChars = 2000): string {
    return this.session?.carrier.tail(maxChars) ?? '';
  }

  /** Bytes of stderr held in memory (bounded by `stderrBytes`) and seen in total. */
  stderrBytes(): { held: number; total: number } {
    return this.session?.carrier.tailBytes() ?? { held: 0, total: 0 };
  }

  /** How the session is carried: a process's stdio, streamable HTTP, or HTTP+SSE (configured or fallen back to). */
  get transportKind(): TransportKind {
    return this.session?.carrier.kind ?? (this.config.transport === 'http' ? 'streamable-http' : this.config.transport);
  }

  /** What the views and the model are told of this server now (connection-status.ts). */
  status(): ServerStatus {
    return connectionStatus(this, this.session?.client);
  }

  /**
   * Spawns the server (or reaches its URL), settles the era and lists what it offers. Resolves once `ready`;
   * rejects with an McpStartError (and the state becomes `error`) with a diagnosis. One start per connection.
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
    try {
      await openInEra(this.config, this.options.eras, {
        open: (prior) => this.open(prior),
        answeredNothing: () => this.lists.allFailed(),
        reopen: () => this.reopen(),
        opened: () => ({ era: this.era, discover: this.session?.client.getDiscoverResult() }),
        exitedWhenAsked: () => this.exitedWhenAsked,
        log: (line) => this.log(line),
      });
    } catch (err) {
      if (this.closing) throw this.closedWhileStarting();
      this.errorText = err instanceof Error ? err.message : String(err);
      this.setState('error');
      await this.shutdown();
      throw err;
    }
    if (this.closing) throw this.closedWhileStarting();
    const ended = this.session?.carrier.ended;
    if (ended) {
      // It died while we listed what it offers.
      const failure = this.startFailure(ended, this.initMs);
      this.errorText = failure.message;
      this.setState('error');
      throw failure;
    }
    const tools = this.lists.failure('tools');
    if (tools !== undefined) {
      // Up, but what it offers could not be read: a server with no tools would pass for a working one.
      const failure = new McpStartError('protocol', `server ${this.name} answered initialize, but its tools could not be listed: ${tools}`);
      this.errorText = failure.message;
      this.setState('error');
      await this.shutdown();
      throw failure;
    }
    if (this.currentState === 'starting') this.setState('ready');
  }

  /** How long the server is given to answer initialize: its config's own limit, else the host's. */
  private get initMs(): number {
    return this.config.startTimeoutMs ?? this.options.initializeTimeoutMs ?? 15_000;
  }

  /** A carrier and a client, connected in the era `prior` names (none: asked), then the lists. */
  private async open(prior: PriorDiscovery | undefined): Promise<void> {
    const session: LiveSession = sessionParts(this.config, this.options, {
      clientInfo: this.clientInfo,
      sink: this.sink,
      probeMeta: prior?.kind === 'legacy' ? undefined : probeMeta(this.options.handlers ?? {}, this.clientInfo),
      events: {
        listChanged: (kind) => void this.lists.refresh(kind),
        resourceUpdated: (uri) => this.emit('resourceUpdated', uri),
        roots: () => this.roots,
        elicitationComplete: (id) => this.completions.complete(id),
        error: (err) => this.clientError(err),
      },
      onEnd: (end) => this.onEnd(end),
      log: (line) => this.log(line),
    });
    this.session = session;
    this.exitedWhenAsked = false;
    try {
      await this.sessionEnd.race(session.client.connect(session.guarded, { timeout: this.initMs, ...(prior ? { prior } : {}) }));
    } catch (err) {
      if (this.closing) throw this.closedWhileStarting();
      const failure = this.startFailure(err, this.initMs);
      this.exitedWhenAsked = !prior && failure.kind === 'exited';
      if (!prior && failure.kind === 'protocol' && /Unsupported protocol version/i.test(failure.message))
        throw slowProbeFailure(this.name, this.initMs, failure);
      throw failure;
    }
    await openEraExtras(session, {
      server: this.name,
      handlers: this.options.handlers ?? {},
      clientInfo: this.clientInfo,
      roots: () => this.roots,
      sink: this.sink,
      log: (line) => this.log(line),
    });
    await Promise.all([this.lists.refreshAll(), this.applyLogLevel()]);
  }

  /** Ends the session opened in the wrong era, to open another in its place. */
  private async reopen(): Promise<void> {
    if (this.session) this.session.carrier.onend = undefined;
    await this.shutdown();
    this.sessionEnd = new SessionEnd();
  }

  /** Calls a tool: the definition the hub resolved (no lookup here), or a name, looked up in this server's list. */
  async callTool(target: string | Tool, args: Record<string, unknown> = {}, opts: CallOptions = {}): Promise<CallToolResult> {
    return this.requests.callTool(target, args, opts);
  }

  async readResource(uri: string, opts: CallOptions = {}): Promise<ReadResourceResult> {
    return this.requests.readResource(uri, opts);
  }

  async getPrompt(name: string, args: Record<string, string> = {}, opts: CallOptions = {}): Promise<GetPromptResult> {
    return this.requests.getPrompt(name, args, opts);
  }

  /** Asks to be told ('resourceUpdated') when a resource changes (server-requests.ts). */
  async subscribeResource(uri: string, opts: CallOptions = {}): Promise<void> {
    return this.requests.subscribeResource(uri, opts);
  }

  async unsubscribeResource(uri: string, opts: CallOptions = {}): Promise<void> {
    return this.requests.unsubscribeResource(uri, opts);
  }

  /** The server's suggestions for a prompt argument or a template variable (`completion/complete`). */
  async complete(params: CompleteRequestParams, opts: CallOptions = {}): Promise<CompleteResult> {
    return this.requests.complete(params, opts);
  }

  /** Whether the server declared what a feature needs (live-session.ts). */
  supports(feature: ServerFeature): boolean {
    return sessionSupports(this.session, feature);
  }

  /**
   * The level the server is asked to log at, now and after every restart: `logging/setLevel` in the 2025-11-25
   * era, each request's own `_meta` in 2026-07-28 (a server there logs only within a request, as asked).
   */
  async setLogLevel(level: LoggingLevel | undefined): Promise<void> {
    this.logLevel = level;
    if (this.currentState === 'ready') await this.applyLogLevel();
  }

  /** Replaces the roots offered to the server and tells a 2025-11-25 one (a 2026-07-28 server asks each time). */
  async setRoots(dirs: string[]): Promise<void> {
    this.roots = [...dirs];
    if (this.currentState === 'ready' && this.era === 'legacy') await this.session?.client.sendRootsListChanged().catch(() => undefined);
  }

  /** Re-lists tools, resources, resource templates and prompts (what the server declares). */
  refreshAll(): Promise<void> {
    return this.lists.refreshAll();
  }

  /** Lists again those the server said may be kept only so long (`ttlMs`, 2026-07-28) and whose time is up. */
  revalidate(): Promise<void> {
    return this.lists.refreshStale();
  }

  /** Ends the session and the process (stdin EOF, SIGTERM, SIGKILL); resolves once it has exited. */
  async close(): Promise<void> {
    this.closing = true;
    await this.shutdown();
    if (this.currentState !== 'error') this.setState('stopped');
    this.removeAllListeners();
  }

  private get clientInfo(): { name: string; version: string } {
    return this.options.clientInfo ?? { name: 'mcp-agent', version: '0.1.0' };
  }

  private async applyLogLevel(): Promise<void> {
    if (!this.session) return;
    const timeoutMs = this.options.requestTimeoutMs ?? 30_000;
    await applyLogLevel(this.session, this.logLevel, { timeoutMs, untilEnded: (p) => this.sessionEnd.race(p), log: (line) => this.log(line) });
  }

  /** Non-JSON stdout lines and the like land here; the session goes on. */
  private clientError(err: Error): void {
    if (this.loggedErrors > MAX_LOGGED_ERRORS) return;
    this.loggedErrors++;
    this.log(this.loggedErrors > MAX_LOGGED_ERRORS ? 'too many errors; no more are logged' : messageOf(err));
  }

  private readySession(): LiveSession {
    if (this.currentState !== 'ready' || !this.session) {
      const why = this.currentState === 'error' && this.errorText ? `: ${this.errorText}` : '';
      throw new McpRequestError('not-ready', `server ${this.name} is not ready (${this.currentState})${why}`);
    }
    return this.session;
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
    return this.session ? this.session.carrier.explain(message) : message;
  }

  private closedWhileStarting(): McpStartError {
    return new McpStartError('protocol', `server ${this.name} was closed while starting`);
  }

  private startFailure(err: unknown, initMs: number): McpStartError {
    const carrier = this.session?.carrier;
    if (!carrier) return new McpStartError('spawn', `server ${this.name}: ${messageOf(err)}`);
    return diagnoseStartFailure(err, { server: this.name, initMs, carrier });
  }

  private requestFailure(err: unknown, what: string, during: string, timeoutMs: number, signal?: AbortSignal): McpRequestError {
    return diagnoseRequestFailure(err, { server: this.name, what, during, timeoutMs, signal, explain: (m) => this.explain(m) });
  }

  private async shutdown(): Promise<void> {
    if (this.session) await closeSession(this.session);
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
