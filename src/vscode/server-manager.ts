import * as vscode from 'vscode';
import { join } from 'node:path';
import { McpHub } from '../core/mcp/hub';
import { bundledServerConfigs } from '../core/mcp/bundled-servers';
import type { ServerConfig } from '../core/mcp/types';
import type { Secrets } from './secrets';
import { readSettings } from './settings';

/** Servers that can neither write files nor run code: the only ones started in Restricted Mode. */
const SAFE_IN_RESTRICTED_MODE = new Set(['web']);

/**
 * Owns the one McpHub of the window: which bundled servers run (workspace trust decides), the
 * environment they get (keys from secret storage), and restarting them when either changes.
 */
export class ServerManager implements vscode.Disposable {
  readonly hub: McpHub;
  private readonly disposables: vscode.Disposable[] = [];
  private launched: Promise<void> | undefined;

  constructor(
    private readonly extensionPath: string,
    readonly workspace: string | undefined,
    private readonly secrets: Secrets,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.hub = new McpHub([], {
      connection: {
        roots: workspace ? [workspace] : [],
        log: (server, line) => this.log.debug(`[${server}] ${line}`),
        clientInfo: { name: 'mcp-agent-vscode', version: '0.1.0' },
      },
    });
    this.disposables.push(
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.reconfigure()),
      // The orchestrator runs sub-agents with the Anthropic key; the web server searches with the Brave key.
      secrets.onDidChange(() => void this.reconfigure()),
      vscode.workspace.onDidChangeConfiguration(
        (e) => ['mcpAgent.runCodeMaxTimeoutSeconds', 'mcpAgent.runCodeNetwork', 'mcpAgent.apiBaseUrl'].some((s) => e.affectsConfiguration(s)) && void this.reconfigure(),
      ),
    );
  }

  /** Starts the servers in the background; resolves once each has been launched (not yet ready). */
  start(): Promise<void> {
    this.hub.start();
    this.launched ??= this.reconfigure();
    return this.launched;
  }

  /** Resolves when the servers were launched and none is still starting. */
  async settled(): Promise<void> {
    await this.start();
    await this.hub.settled();
  }

  private async reconfigure(): Promise<void> {
    try {
      await this.hub.update(await this.configs());
    } catch (err) {
      this.log.error(`could not start MCP servers: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private async configs(): Promise<ServerConfig[]> {
    if (!this.workspace) return [];
    const settings = readSettings();
    const [brave, anthropic] = await Promise.all([this.secrets.braveKey(), this.secrets.anthropicKey()]);
    // Each server takes only its share of this (the Brave key goes to the web server alone, the Anthropic key to the orchestrator).
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...(brave ? { BRAVE_API_KEY: brave } : {}),
      ...(anthropic ? { ANTHROPIC_API_KEY: anthropic } : {}),
      ...(settings.apiBaseUrl ? { ANTHROPIC_BASE_URL: settings.apiBaseUrl } : {}),
      MCP_AGENT_RUN_CODE_MAX_TIMEOUT_S: String(settings.runCodeMaxTimeoutSeconds),
      MCP_AGENT_RUN_CODE_NETWORK: settings.runCodeNetwork ? '1' : '0',
    };
    const all = bundledServerConfigs(join(this.extensionPath, 'dist'), this.workspace, env);
    return vscode.workspace.isTrusted ? all : all.filter((c) => SAFE_IN_RESTRICTED_MODE.has(c.name));
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    void this.hub.dispose();
  }
}
