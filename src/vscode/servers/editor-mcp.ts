import * as vscode from 'vscode';
import { join } from 'node:path';
import { keysFor, offeredServers, type OfferedServer } from '../../core/mcp/hub/offered-servers';
import { messageOf } from '../../node/error-message';
import type { ConfigSource } from '../../core/mcp/config/definition';

/** The provider id in package.json's contributes.mcpServerDefinitionProviders. */
const PROVIDER_ID = 'mcpAgent.bundled';
const OFFER_SETTING = 'mcpAgent.offerServersToVSCode';
/** Which host runs the servers a folder defines in the files VS Code's own MCP host reads too. */
export const HOST_SETTING = 'mcpAgent.workspaceServersHost';

/** The part of VS Code's MCP API (stable since 1.101) this uses; @types/vscode is 1.100's, which lacks it. */
interface StdioDefinition {
  readonly label: string;
  command: string;
  args: string[];
  env: Record<string, string | number | null>;
  cwd?: vscode.Uri;
  version?: string;
}
interface DefinitionProvider {
  readonly onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.ProviderResult<StdioDefinition[]>;
  resolveMcpServerDefinition?(server: StdioDefinition, token: vscode.CancellationToken): vscode.ProviderResult<StdioDefinition>;
}
interface McpApi {
  Definition: new (label: string, command: string, args?: string[], env?: Record<string, string | number | null>, version?: string) => StdioDefinition;
  register(id: string, provider: DefinitionProvider): vscode.Disposable;
}

/** The first VS Code whose MCP provider API is stable: 1.100 has the same names behind a proposal, and throws. */
const STABLE_SINCE: readonly [number, number] = [1, 101];

/** VS Code's MCP provider API where this VS Code has it stable, else undefined. */
function mcpApi(): McpApi | undefined {
  const api = vscode as unknown as {
    lm?: { registerMcpServerDefinitionProvider?: (id: string, provider: DefinitionProvider) => vscode.Disposable };
    McpStdioServerDefinition?: McpApi['Definition'];
  };
  const register = api.lm?.registerMcpServerDefinitionProvider;
  if (typeof register !== 'function' || typeof api.McpStdioServerDefinition !== 'function' || !versionAtLeast(vscode.version, STABLE_SINCE)) return undefined;
  return { Definition: api.McpStdioServerDefinition, register: (id, provider) => register.call(api.lm, id, provider) };
}

function versionAtLeast(version: string, [major, minor]: readonly [number, number]): boolean {
  const [a = 0, b = 0] = version.split('.').map((n) => parseInt(n, 10));
  return a > major || (a === major && b >= minor);
}

/** The first VS Code known to read a folder's root `.mcp.json` too (1.100 does not). */
const READS_DOT_MCP_JSON: readonly [number, number] = [1, 139];

/** Whether VS Code's own MCP host reads this config file as well: every folder's `.vscode/mcp.json`, and `.mcp.json` where it does. */
export function editorReads(source: ConfigSource): boolean {
  if (source.origin !== 'workspace') return false;
  return source.format === 'vscode' || versionAtLeast(vscode.version, READS_DOT_MCP_JSON);
}

/** A file the person left to VS Code's own MCP host: MCP Agent neither asks about its servers nor starts them. */
export function leftToEditor(source: ConfigSource): boolean {
  return vscode.workspace.getConfiguration().get<string>(HOST_SETTING, 'mcpAgent') === 'vscode' && editorReads(source);
}

/** What the editor was told: offered (with the servers it lists), turned off by the setting, or no such API here. */
export type OfferState = 'offered' | 'off' | 'no-folder' | 'untrusted' | 'no-api' | 'refused';

export interface EditorMcpDeps {
  extensionPath: string;
  version: string | undefined;
  workspace: string | undefined;
  braveKey(): Promise<string | undefined>;
  log: vscode.LogOutputChannel;
}

/**
 * Offers the bundled servers to VS Code's own MCP host, where this VS Code has the stable API, so its chat's agent
 * can use them: the same `node dist/servers/<name>.js <workspace>`, in a trusted folder only, unless the person
 * turned it off. VS Code's host runs its own copies, apart from this extension's (its approvals, its processes).
 */
export class EditorMcpOffer implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  private registered = false;
  private refusal: string | undefined;

  constructor(private readonly deps: EditorMcpDeps) {
    this.disposables.push(this.changed);
    const api = mcpApi();
    if (!api) {
      deps.log.info(`VS Code ${vscode.version} has no stable MCP server API (1.101 and later): the bundled servers are not offered to its MCP host`);
      return;
    }
    try {
      this.disposables.push(api.register(PROVIDER_ID, this.provider(api)));
      this.registered = true;
    } catch (err) {
      this.refusal = messageOf(err);
      deps.log.warn(`VS Code did not take the bundled servers for its MCP host: ${this.refusal}`);
    }
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(OFFER_SETTING) && this.changed.fire()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire()),
    );
  }

  /** Where the offer stands now: why nothing is offered, or 'offered'. */
  state(): OfferState {
    if (!this.registered) return this.refusal ? 'refused' : 'no-api';
    if (!vscode.workspace.getConfiguration().get<boolean>(OFFER_SETTING, true)) return 'off';
    if (!this.deps.workspace) return 'no-folder';
    if (!vscode.workspace.isTrusted) return 'untrusted';
    return 'offered';
  }

  /** The servers offered now (none unless state() is 'offered'). */
  offered(): OfferedServer[] {
    if (this.state() !== 'offered') return [];
    return offeredServers(join(this.deps.extensionPath, 'dist'), this.deps.workspace!, process.env);
  }

  private provider(api: McpApi): DefinitionProvider {
    return {
      onDidChangeMcpServerDefinitions: this.changed.event,
      provideMcpServerDefinitions: () => this.offered().map((s) => this.definition(api, s)),
      resolveMcpServerDefinition: async (server) => {
        // Asked again as it starts: the setting or the folder's trust may have changed since it was listed.
        const now = this.offered().find((s) => s.label === server.label);
        if (!now) return undefined;
        const keys = keysFor(now.name, { ...process.env, BRAVE_API_KEY: await this.deps.braveKey() });
        server.env = { ...server.env, ...keys };
        return server;
      },
    };
  }

  private definition(api: McpApi, s: OfferedServer): StdioDefinition {
    const d = new api.Definition(s.label, s.command, s.args, s.env, this.deps.version);
    d.cwd = vscode.Uri.file(s.cwd);
    return d;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
