import type {
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  ReadResourceResult,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/client';
import { RestartBudget } from './backoff';
import type { McpConnection } from '../session/connection';
import { MemoryEras, type EraMemory } from '../era/era-memory';
import { McpRequestError } from '../session/errors';
import { ToolIndex } from './tool-index';
import { failure, type HubEvents, type HubOptions } from './hub-types';
import { TypedEmitter } from '../typed-emitter';
import { entryStatus, type Entry } from './hub-entry';
import { ServerStarts } from './server-starts';
import type { CallOptions, CallToolResult, HubTool, ServerConfig, ServerStatus } from '../types';
import { messageOf } from '../../../node/error-message';

export { FAILURE_META_KEY, type HubEvents, type HubOptions } from './hub-types';

/**
 * All configured MCP servers behind one face: starts them in parallel in the background, restarts
 * crashed ones and reconnects dropped HTTP sessions with capped backoff, and gives the agent one flat list of tools named
 * `<server>__<tool>` (see tool-names.ts).
 */
export class McpHub extends TypedEmitter<HubEvents> {
  private entries = new Map<string, Entry>();
  private readonly options: HubOptions;
  private roots: string[];
  private started = false;
  private disposed = false;
  private changeTimer: NodeJS.Timeout | undefined;
  /** The ready servers' tools by name (tool-index.ts). */
  private readonly index = new ToolIndex(() =>
    [...this.entries.values()].flatMap((e) =>
      e.conn?.state === 'ready' ? [{ server: e.config.name, tools: e.conn.tools, tasks: e.conn.supports('tasks'), invalid: e.conn.invalidSchemas }] : [],
    ),
  );
  private settleWaiters: Array<{ done: () => boolean; resolve: () => void }> = [];
  private logLevel: LoggingLevel | undefined;
  /** Levels set for one server (its own output channel's), over `logLevel`. */
  private serverLogLevels = new Map<string, LoggingLevel>();
  /** Each server's era, so a restart does not ask again (the front end's file keeps them across runs). */
  private readonly eras: EraMemory;
  /** Each server's starts and restarts (server-starts.ts). */
  private readonly starts: ServerStarts;

  constructor(configs: ServerConfig[], options: HubOptions = {}) {
    super();
    this.options = options;
    this.roots = options.connection?.roots ?? [];
    this.logLevel = options.connection?.handlers?.logging?.level;
    this.eras = options.connection?.eras ?? new MemoryEras();
    this.starts = new ServerStarts({
      options,
      eras: this.eras,
      disposed: () => this.disposed,
      roots: () => this.roots,
      levelOf: (server) => this.levelOf(server),
      changed: () => this.changed(),
      resourceUpdated: (server, uri) => this.emit('resourceUpdated', server, uri),
    });
    for (const config of configs) this.addEntry(config);
  }

  /** Starts every server in the background and returns at once. */
  start(): void {
    if (this.started || this.disposed) return;
    this.started = true;
    // launch() settles every failure into the entry's state: nothing is lost by not awaiting it here.
    for (const entry of this.entries.values()) void this.starts.launch(entry);
  }

  /** Resolves once no server is starting (each is ready, in error or stopped). */
  settled(): Promise<void> {
    return this.until(() => this.statuses().every((s) => s.state !== 'starting'));
  }

  statuses(): ServerStatus[] {
    return [...this.entries.values()].map((e) => entryStatus(e));
  }

  status(name: string): ServerStatus | undefined {
    const entry = this.entries.get(name);
    return entry && entryStatus(entry);
  }

  /**
   * Every tool of the ready servers that the model may use, uncapped: what reaches a request is the
   * agent's choice (core/tool-offer), and a name must resolve whatever was sent. Left out: tools a
   * server made for its app's view alone (app-visibility.ts), and tools that run only as tasks where
   * their server does not take tasks (every call would fail). `statuses()` still lists them all.
   */
  tools(): HubTool[] {
    this.revalidateLists();
    return this.index.modelTools();
  }

  /**
   * A list a server said may be kept only so long (`ttlMs`, 2026-07-28) is listed again once it is asked for past
   * that time; what is held serves meanwhile, and the fresh list follows with a 'change' (the next request has it).
   * Lists a server tells the changes of (list_changed, a listen stream) are never listed again for their age.
   */
  private revalidateLists(): void {
    for (const e of this.entries.values()) if (e.conn?.state === 'ready') void e.conn.revalidate().catch(() => undefined);
  }

  /** One of `tools()` by its qualified name: never an app-only tool, whatever the model asks for. */
  findTool(qualifiedName: string): HubTool | undefined {
    return this.index.modelTool(qualifiedName);
  }

  /**
   * A ready server's tool by its own name, whoever it is for (app-only tools too): what an MCP App's view
   * names is looked up here, on its own server only, and its visibility is the caller's to check.
   */
  serverTool(server: string, name: string): HubTool | undefined {
    return this.index.serverTool(server, name);
  }

  /**
   * Calls a tool by its qualified name, or the tool itself as findTool() gave it (no second lookup). Never throws: an unknown tool, a server that is not ready,
   * a timeout, a cancel or a crash all come back as an `isError` result saying so, with
   * `_meta[FAILURE_META_KEY]` telling which.
   */
  async callTool(target: string | HubTool, args: Record<string, unknown> = {}, opts: CallOptions = {}): Promise<CallToolResult> {
    // Any tool, app-only ones too: a view calls those (the model's names are checked by findTool first).
    const hit = typeof target === 'string' ? this.index.anyTool(target) : target;
    if (!hit) return failure('unknown-tool', this.unknownToolMessage(target as string));
    const conn = this.entries.get(hit.server)?.conn;
    if (!conn || conn.state !== 'ready') {
      return failure('not-ready', `server ${hit.server} is not ready; ${this.statusLine(hit.server)}`);
    }
    try {
      return await conn.callTool(hit.tool, args, opts);
    } catch (err) {
      return failure(err instanceof McpRequestError ? err.kind : 'protocol', messageOf(err));
    }
  }

  /** Throws McpRequestError when the server is unknown, not ready, or the read fails. */
  async readResource(server: string, uri: string, opts: CallOptions = {}): Promise<ReadResourceResult> {
    return this.readyConnection(server).readResource(uri, opts);
  }

  /** Throws McpRequestError when the server is unknown, not ready, or the request fails. */
  async getPrompt(server: string, name: string, args: Record<string, string> = {}, opts: CallOptions = {}): Promise<GetPromptResult> {
    return this.readyConnection(server).getPrompt(name, args, opts);
  }

  /** A ready server's resource templates, or all ready servers' when no server is named. */
  listResourceTemplates(server?: string): Array<{ server: string; template: ResourceTemplate }> {
    return this.statuses()
      .filter((s) => s.state === 'ready' && (server === undefined || s.name === server))
      .flatMap((s) => s.resourceTemplates.map((template) => ({ server: s.name, template })));
  }

  /**
   * Subscribes to a resource of a ready server (it must declare `resources.subscribe`); 'resourceUpdated'
   * reports its changes. Kept across restarts until unsubscribed. Throws McpRequestError when it cannot.
   */
  async subscribeResource(server: string, uri: string, opts: CallOptions = {}): Promise<void> {
    const conn = this.readyConnection(server);
    if (!conn.supports('subscribe')) throw new McpRequestError('protocol', `server ${server} does not offer subscriptions to its resources`);
    await conn.subscribeResource(uri, opts);
    this.entries.get(server)?.subscriptions.add(uri);
  }

  async unsubscribeResource(server: string, uri: string, opts: CallOptions = {}): Promise<void> {
    const entry = this.entries.get(server);
    if (!entry?.subscriptions.delete(uri)) return;
    const conn = entry.conn;
    if (conn?.state === 'ready') await conn.unsubscribeResource(uri, opts);
  }

  /** A server's suggestions for a prompt argument or template variable; none when it offers no completions. */
  async complete(server: string, params: CompleteRequestParams, opts: CallOptions = {}): Promise<CompleteResult> {
    const conn = this.readyConnection(server);
    if (!conn.supports('completions')) return { completion: { values: [] } };
    return conn.complete(params, opts);
  }

  /**
   * The level servers that log are asked to log at (`logging/setLevel`), now and after restarts: every
   * server's, or with `server` that one's alone (it then keeps it over later calls for every server).
   */
  async setLogLevel(level: LoggingLevel | undefined, server?: string): Promise<void> {
    if (server !== undefined) {
      if (level) this.serverLogLevels.set(server, level);
      else this.serverLogLevels.delete(server);
      await this.entries.get(server)?.conn?.setLogLevel(level ?? this.logLevel);
      return;
    }
    this.logLevel = level;
    await Promise.all([...this.entries.values()].flatMap((e) => (e.conn ? [e.conn.setLogLevel(this.levelOf(e.config.name))] : [])));
  }

  private levelOf(server: string): LoggingLevel | undefined {
    return this.serverLogLevels.get(server) ?? this.logLevel;
  }

  /** The last stderr lines of a server (for an output channel or a diagnosis). */
  stderr(name: string, maxChars?: number): string {
    return this.entries.get(name)?.conn?.stderr(maxChars) ?? '';
  }

  /**
   * Stops and starts one server now, forgetting earlier crashes. Resolves once it is ready, or in
   * error after its automatic restarts.
   */
  async restart(name: string): Promise<void> {
    const entry = this.entries.get(name);
    if (!entry || this.disposed) throw new Error(`no server named ${name}`);
    entry.budget.reset();
    entry.restarts = 0;
    await this.starts.stop(entry);
    this.started = true;
    void this.starts.launch(entry);
    await this.until(() => this.entries.get(name) !== entry || entryStatus(entry).state !== 'starting');
  }

  /** Changes the roots every server is offered and tells the running ones. */
  async setRoots(dirs: string[]): Promise<void> {
    this.roots = [...dirs];
    await Promise.all([...this.entries.values()].flatMap((e) => (e.conn ? [e.conn.setRoots(dirs)] : [])));
  }

  /** Applies a new set of configs: removed servers stop, changed ones restart, new ones start. */
  async update(configs: ServerConfig[]): Promise<void> {
    const next = new Map(configs.map((c) => [c.name, c]));
    const stops: Array<Promise<void>> = [];
    for (const [name, entry] of this.entries) {
      const config = next.get(name);
      if (!config || JSON.stringify(config) !== JSON.stringify(entry.config)) {
        stops.push(this.starts.stop(entry));
        this.entries.delete(name);
      }
    }
    await Promise.all(stops);
    const old = this.entries;
    this.entries = new Map();
    for (const config of configs) {
      const kept = old.get(config.name);
      if (kept) this.entries.set(config.name, kept);
      else if (!this.entries.has(config.name)) {
        const entry = this.addEntry(config);
        if (this.started) void this.starts.launch(entry);
      }
    }
    this.changed();
  }

  /** Closes every server and waits until every process has exited. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.changeTimer);
    await Promise.all([...this.entries.values()].map((e) => this.starts.stop(e)));
    for (const w of this.settleWaiters.splice(0)) w.resolve();
    this.removeAllListeners();
  }

  private addEntry(config: ServerConfig): Entry {
    if (this.entries.has(config.name)) {
      this.options.connection?.log?.(config.name, `ignored a second server named "${config.name}"`);
      return this.entries.get(config.name) as Entry;
    }
    const entry: Entry = {
      config,
      conn: undefined,
      budget: new RestartBudget(this.options.restart),
      restarts: 0,
      detail: undefined,
      gaveUp: undefined,
      timer: undefined,
      launching: false,
      generation: 0,
      subscriptions: new Set(),
      sink: this.options.connection?.handlers?.logging?.sink(config.name),
      startingSince: undefined,
      signingIn: undefined,
      attempts: 0,
      limitMs: 0,
    };
    this.entries.set(config.name, entry);
    return entry;
  }

  private readyConnection(server: string): McpConnection {
    const conn = this.entries.get(server)?.conn;
    if (!this.entries.has(server)) throw new McpRequestError('not-ready', `no server named ${server}`);
    if (!conn || conn.state !== 'ready') {
      throw new McpRequestError('not-ready', `server ${server} is not ready; ${this.statusLine(server)}`);
    }
    return conn;
  }

  private statusLine(server: string): string {
    const s = this.status(server);
    if (!s) return 'it is not configured';
    return `it is ${s.state}${s.error ? `: ${s.error}` : s.detail ? `: ${s.detail}` : ''}`;
  }

  private unknownToolMessage(name: string): string {
    const server = [...this.entries.keys()].find((s) => name.startsWith(`${s}__`));
    if (server && this.status(server)?.state !== 'ready') {
      return `tool ${name} is not available: server ${server} is not ready; ${this.statusLine(server)}`;
    }
    return `unknown tool ${name}; use one of the tools listed`;
  }

  /** Resolves once `done()` holds, checked on every change (not debounced) or at dispose. */
  private until(done: () => boolean): Promise<void> {
    if (this.disposed || done()) return Promise.resolve();
    return new Promise((resolve) => this.settleWaiters.push({ done, resolve }));
  }

  private changed(): void {
    this.index.stale();
    if (this.settleWaiters.length) {
      const waiting = this.settleWaiters;
      this.settleWaiters = [];
      for (const w of waiting) {
        if (this.disposed || w.done()) w.resolve();
        else this.settleWaiters.push(w);
      }
    }
    if (this.changeTimer || this.disposed) return;
    this.changeTimer = setTimeout(() => {
      this.changeTimer = undefined;
      this.emit('change');
    }, this.options.changeDebounceMs ?? 20);
  }
}
