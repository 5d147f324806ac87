import { VscodeOAuth } from './oauth-front-end';
import { agentHome } from '../../core/chat/chat-home';
import { EDITOR_STORAGE_ENV } from '../../node/agent-home';
import { FileEras } from '../../core/mcp/era/era-memory';
import * as vscode from 'vscode';
import { delimiter, join } from 'node:path';
import { launchLine } from '../../core/mcp/config/definition-summary';
import type { McpHub } from '../../core/mcp/hub/hub';
import { bundledServerConfigs, PERSON_SERVERS_ENV } from '../../core/mcp/hub/bundled-servers';
import { orchestratorServers, writeOrchestratorServers } from '../../core/mcp/config/orchestrator-export';
import type { ServerConfig } from '../../core/mcp/types';
import { ConfigDiagnostics } from './config-diagnostics';
import { ConfigWatcher } from './config-watcher';
import { DisabledServers } from './disabled-servers';
import { loginShellPath } from '../../core/mcp/transport/login-shell-path';
import { readOwnSources } from '../../core/mcp/config/own-server-sources';
import { OwnServers, type OwnServer, type OwnSource } from '../../core/mcp/config/own-servers';
import type { Secrets } from '../secrets';
import type { ClientAsks } from '../../core/chat/client-asks';
import { composeHost } from '../../core/host/compose-host';
import type { SamplingBroker } from '../../core/sampling/sampling-broker';
import { ServerInputs } from './server-inputs';
import { ServerLogs } from './server-logs';
import { ServerTrust } from './server-trust';
import { ownSetting, readSettings } from '../settings';
import { HOST_SETTING, leftToEditor } from './editor-mcp';
import { messageOf } from '../../node/error-message';

/** Servers that can neither write files nor run code: the only bundled ones started in Restricted Mode. */
const SAFE_IN_RESTRICTED_MODE = new Set(['web']);

export interface ManagerDeps {
  extensionPath: string;
  /** The extension's own storage (the person's servers as the orchestrator reads them). */
  storageDir: string;
  /** The editor's folders holding the extension's data (editor-storage.ts): hidden from run_code. */
  editorStorage: string[];
  workspace: string | undefined;
  secrets: Secrets;
  /** Where trust answers and disabled servers are remembered. */
  workspaceState: vscode.Memento;
  /** Where `password` inputs are kept. */
  secretStorage: vscode.SecretStorage;
  log: vscode.LogOutputChannel;
  /** How the person is asked what servers ask (sampling, elicitation: cards in the chat), on the chat's key and models. */
  asks: Pick<ClientAsks, 'asks' | 'models' | 'countUsage'>;
}

/**
 * Owns the one McpHub of the window: the bundled servers (workspace trust decides which, secret
 * storage gives their keys) and the person's own (the setting, `.vscode/mcp.json`, `.mcp.json`; see
 * own-servers.ts), and applies any change to either: only servers whose definition changed restart.
 */
export class ServerManager implements vscode.Disposable {
  readonly hub: McpHub;
  /** Servers' sampling: what "always" allowed and how much of its budget is used. */
  readonly sampling: SamplingBroker;
  readonly workspace: string | undefined;
  readonly disabled: DisabledServers;
  readonly trust: ServerTrust;
  /** Each server's own output channel. */
  readonly logs = new ServerLogs();
  /** Sign-in to remote servers that ask for it (OAuth). */
  readonly oauth: VscodeOAuth;
  private readonly own: OwnServers;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly sourcesChanged = new vscode.EventEmitter<void>();
  /** Fires when the own servers' sources, or what was decided about them, change. */
  readonly onDidChangeSources = this.sourcesChanged.event;
  private launched: Promise<void> | undefined;
  private bundledLaunched: () => void = () => undefined;
  private sources: OwnSource[] = [];
  private bundledRunning = false;
  /** The apply running now, and whether another was asked for meanwhile (they are coalesced into one). */
  private applying: Promise<void> | undefined;
  private again = false;
  private readonly loggedErrors = new Map<string, string>();

  constructor(private readonly deps: ManagerDeps) {
    const { workspace, secrets, log } = deps;
    this.workspace = workspace;
    this.oauth = new VscodeOAuth(deps.secretStorage);
    ({ hub: this.hub, sampling: this.sampling } = composeHost({
      configs: [],
      roots: workspaceRoots(),
      asks: { ...deps.asks.asks, oauth: this.oauth },
      models: deps.asks.models,
      onSamplingUsage: (server, model, usage) => deps.asks.countUsage(server, model, usage),
      logging: this.logs,
      clientInfo: { name: 'mcp-agent-vscode', version: '0.1.0' },
      log: (server, line) => log.debug(`[${server}] ${line}`),
      eras: new FileEras(join(agentHome(), 'eras.json')),
      startLimitMs: () => readSettings().serverStartTimeoutMs,
    }));
    this.logs.follow(this.hub);
    const diagnostics = new ConfigDiagnostics();
    this.trust = new ServerTrust(deps.workspaceState);
    this.disabled = new DisabledServers(deps.workspaceState);
    this.own = new OwnServers({
      trust: this.trust,
      inputs: new ServerInputs(deps.secretStorage),
      disabled: this.disabled,
      diagnostics,
      shellPath: () => loginShellPath((line) => log.warn(line)),
    });
    this.disposables.push(
      diagnostics,
      this.sourcesChanged,
      new ConfigWatcher(() => void this.reconfigure()),
      { dispose: this.hub.on('change', () => this.logFailures()) },
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.reconfigure()),
      // Servers are offered every folder of the window as a root, and told (roots/list_changed) when that changes.
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.hub.setRoots(workspaceRoots()).catch((err: unknown) => log.warn(`roots: ${String(err)}`))),
      // The orchestrator runs sub-agents with the Anthropic key; the web server searches with the Brave key.
      secrets.onDidChange(() => void this.reconfigure()),
      vscode.workspace.onDidChangeConfiguration(
        (e) =>
          ['mcpAgent.runCodeMaxTimeoutSeconds', 'mcpAgent.runCodeNetwork', 'mcpAgent.apiBaseUrl', HOST_SETTING].some((s) => e.affectsConfiguration(s)) &&
          void this.reconfigure(),
      ),
    );
  }

  /**
   * Starts the servers in the background; resolves once the bundled ones have been launched (not yet
   * ready). The person's own may still wait for a question; `applied()` waits for them too.
   */
  start(): Promise<void> {
    this.hub.start();
    this.launched ??= new Promise<void>((resolve) => {
      this.bundledLaunched = resolve;
      void this.reconfigure().finally(resolve);
    });
    return this.launched;
  }

  /** Resolves once every config change so far has been applied (questions answered included). */
  async applied(): Promise<void> {
    await this.start();
    while (this.applying) await this.applying;
  }

  /** Resolves when the servers were launched and none is still starting. */
  async settled(): Promise<void> {
    await this.start();
    await this.hub.settled();
  }

  /** Where the own servers come from and what was decided about each, in order. */
  ownSources(): readonly OwnSource[] {
    return this.sources;
  }

  /** The own server the hub knows by this name. */
  ownServer(name: string): { source: OwnSource; server: OwnServer } | undefined {
    for (const source of this.sources) {
      const server = source.servers.find((s) => s.definition.name === name);
      if (server) return { source, server };
    }
    return undefined;
  }

  /**
   * Reads every config again and applies it; resolves once applied (after any question it asked).
   * Calls while one runs are gathered into one more run after it.
   */
  reconfigure(): Promise<void> {
    if (this.applying) {
      this.again = true;
      return this.applying;
    }
    this.applying = (async () => {
      do {
        this.again = false;
        try {
          await this.apply();
        } catch (err) {
          this.deps.log.error(`could not start MCP servers: ${messageOf(err)}`);
        }
      } while (this.again);
      this.applying = undefined;
    })();
    return this.applying;
  }

  private async apply(): Promise<void> {
    const bundled = await this.bundledConfigs();
    // The bundled servers never wait behind a question about the workspace's own.
    if (!this.bundledRunning) {
      this.bundledRunning = true;
      await this.hub.update(bundled);
      this.bundledLaunched();
    }
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    // Only the person's own settings.json: a workspace must not define "user-level" servers that skip the question.
    const setting = ownSetting('servers');
    const read = readOwnSources(folders, setting, process.env);
    // While a question about the workspace's servers is open, the person's own (and those agreed to before) run.
    const decided = await this.own.decide(read, vscode.workspace.isTrusted, { ready: (sources) => this.startOwn(bundled, sources), leftToEditor });
    await this.startOwn(bundled, decided);
  }

  /** Runs the bundled servers and the own servers decided on so far; says which, and which are held and why. */
  private async startOwn(bundled: ServerConfig[], sources: OwnSource[]): Promise<void> {
    this.sources = sources;
    const own = sources.flatMap((s) => s.servers.flatMap((o) => (o.config ? [o.config] : [])));
    const held = sources.flatMap((s) => s.servers.filter((o) => o.held).map((o) => `${o.definition.name} (${o.held})`));
    if (own.length || held.length)
      this.deps.log.info(`own servers: ${own.map((c) => c.name).join(', ') || 'none'} started${held.length ? `; not started: ${held.join(', ')}` : ''}`);
    await this.hub.update([...bundled, ...own]);
    this.sourcesChanged.fire();
  }

  /** A server the person configured that fails is logged once per failure, with what it ran. */
  private logFailures(): void {
    for (const status of this.hub.statuses()) {
      const own = status.state === 'error' ? this.ownServer(status.name) : undefined;
      const error = own ? status.error : undefined;
      if (error && this.loggedErrors.get(status.name) !== error) {
        this.deps.log.warn(`server ${status.name} (from ${own!.source.label}) failed: ${error}\n  it ran: ${launchLine(own!.server.definition)}`);
      }
      if (error) this.loggedErrors.set(status.name, error);
      else this.loggedErrors.delete(status.name);
    }
  }

  private async bundledConfigs(): Promise<ServerConfig[]> {
    if (!this.workspace) return [];
    const settings = readSettings((line) => this.deps.log.warn(line));
    const [brave, anthropic] = await Promise.all([this.deps.secrets.braveKey(), this.deps.secrets.anthropicKey()]);
    // Each server takes only its share of this (the Brave key goes to the web server alone, the Anthropic key to the orchestrator).
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...(brave ? { BRAVE_API_KEY: brave } : {}),
      ...(anthropic ? { ANTHROPIC_API_KEY: anthropic } : {}),
      ...(settings.apiBaseUrl ? { ANTHROPIC_BASE_URL: settings.apiBaseUrl } : {}),
      MCP_AGENT_RUN_CODE_MAX_TIMEOUT_S: String(settings.runCodeMaxTimeoutSeconds),
      MCP_AGENT_RUN_CODE_NETWORK: settings.runCodeNetwork ? '1' : '0',
      [EDITOR_STORAGE_ENV]: this.deps.editorStorage.join(delimiter),
    };
    const person = await this.orchestratorServers();
    if (person) env[PERSON_SERVERS_ENV] = person;
    const all = bundledServerConfigs(join(this.deps.extensionPath, 'dist'), this.workspace, env);
    return vscode.workspace.isTrusted ? all : all.filter((c) => SAFE_IN_RESTRICTED_MODE.has(c.name));
  }

  /** The person's mcpAgent.servers for agent definitions to name (the CLI passes its --mcp-config files the same way). */
  private async orchestratorServers(): Promise<string | undefined> {
    const exported = orchestratorServers(ownSetting('servers'));
    for (const left of exported.left) this.deps.log.info(`orchestrator: sub-agents cannot use ${left}`);
    try {
      return await writeOrchestratorServers(this.deps.storageDir, exported);
    } catch (err) {
      this.deps.log.warn(`orchestrator: your servers could not be passed on to sub-agents: ${messageOf(err)}`);
      return undefined;
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    void this.hub.dispose().finally(() => this.logs.dispose());
  }
}

/** The window's folders on disk: what servers are offered as roots (a remote or virtual folder is no path for them). */
function workspaceRoots(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}
