import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Register } from '../command-registrar';
import type { ConfigSource } from '../../core/mcp/config/definition';
import { safeServerName } from '../../core/mcp/config/server-names';
import { isSettingSource, SETTING_FILE } from '../../core/mcp/config/own-server-sources';
import type { OwnServer } from '../../core/mcp/config/own-servers';
import {
  addServerToFile,
  claudeDesktopConfigPath,
  entryFromCommandLine,
  entryFromNpmPackage,
  entryFromUrl,
  serversFromClaudeDesktop,
  suggestedName,
  writeConfig,
  type ServerEntryJson,
} from '../../core/mcp/config/server-config-edit';
import type { ServerManager } from './server-manager';
import { messageOf } from '../../node/error-message';
import { ownSetting } from '../settings';

/** What Add Server is given when run from a script or test instead of answering its questions. */
interface AddServerArgs {
  kind: 'stdio' | 'http' | 'npm';
  /** The command line, URL or package name. */
  value: string;
  name?: string;
  /** `setting`, or the absolute path of a `.vscode/mcp.json` or `.mcp.json` of the workspace. */
  target?: string;
}

/** A row of the Tools view a command was run on, or a server's name. */
type Target = { status?: { name?: string }; own?: OwnServer; group?: { source?: { source: ConfigSource } } } | string | undefined;

/** The commands for the person's own MCP servers: Add Server, Open Config, Disable/Enable, and importing Claude Desktop's. */
export function registerServerCommands(manager: ServerManager, register: Register): vscode.Disposable[] {
  return [
    register('mcpAgent.addServer', (args?: AddServerArgs) => addServer(manager, args)),
    register('mcpAgent.openServerConfig', (target?: Target | { file: string; line?: number; column?: number }) => openConfig(manager, target)),
    register('mcpAgent.disableServer', (target?: Target) => setDisabled(manager, target, true)),
    register('mcpAgent.enableServer', (target?: Target) => setDisabled(manager, target, false)),
    register('mcpAgent.importClaudeDesktopConfig', (file?: string) => importClaudeDesktop(manager, file)),
    register('mcpAgent.signOutServer', (target?: Target) => signOut(manager, target)),
  ];
}

/** Sign Out of Server: forgets the server's tokens and ends its session; "Restart Server" signs in again. */
async function signOut(manager: ServerManager, target: Target): Promise<void> {
  const named = typeof target === 'string' ? target : target && typeof target === 'object' ? (target.status?.name ?? target.own?.definition.name) : undefined;
  const remote = manager
    .ownSources()
    .flatMap((s) => s.servers)
    .filter((o) => o.config && o.config.transport !== 'stdio');
  let own = named ? remote.find((o) => o.definition.name === named) : undefined;
  if (named && !own) throw new Error(`server ${named} is not an HTTP server: there is nothing to sign out of`);
  if (!own) {
    if (remote.length === 0) throw new Error('no HTTP server is running: there is nothing to sign out of');
    own = (
      await vscode.window.showQuickPick(
        remote.map((o) => ({ label: o.definition.name, own: o })),
        { title: 'Sign out of which MCP server?' },
      )
    )?.own;
  }
  const config = own?.config;
  if (!own || !config || config.transport === 'stdio') return;
  const had = await manager.oauth.signOut(config.url);
  const name = own.definition.name;
  // Said at once: the tokens are gone now, whatever the restart below takes.
  void vscode.window.showInformationMessage(
    had ? `MCP Agent: signed out of "${name}". "Restart Server" signs in again.` : `MCP Agent: "${name}" had no sign-in to forget.`,
  );
  // A new session without the tokens: the server is disconnected, and says why.
  if (manager.hub.status(name)) await manager.hub.restart(name);
}

async function addServer(manager: ServerManager, given?: AddServerArgs): Promise<void> {
  const kind = given?.kind ?? (await pickKind());
  if (!kind) return;
  const value = given?.value ?? (await askValue(kind));
  if (!value) return;
  const entry: ServerEntryJson = kind === 'http' ? entryFromUrl(value) : kind === 'npm' ? entryFromNpmPackage(value) : entryFromCommandLine(value);
  const name =
    given?.name ??
    (await vscode.window.showInputBox({
      title: 'Add MCP Server: name',
      prompt: 'The name its tools are listed under (letters, digits, - and _)',
      value: suggestedName(entry),
      ignoreFocusOut: true,
      validateInput: (v) => (/^[A-Za-z0-9_-]{1,32}$/.test(v) ? undefined : 'Use 1-32 letters, digits, - or _'),
    }));
  if (!name) return;
  const target = given?.target ?? (await pickTarget(manager));
  if (!target) return;
  if (target === 'setting') {
    const config = vscode.workspace.getConfiguration('mcpAgent');
    const current = (ownSetting('servers') ?? {}) as Record<string, unknown>;
    await config.update('servers', { ...current, [name]: entry }, vscode.ConfigurationTarget.Global);
  } else {
    const source = workspaceSource(manager, target);
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(target))?.uri.fsPath ?? manager.workspace;
    if (!folder) throw new Error(`${target} is not in a workspace folder`);
    const { text, fingerprint } = await addServerToFile(source, folder, name, entry);
    // The person typed this server themselves: it starts without asking them about it again.
    if (fingerprint) await manager.trust.remember([{ fingerprint }], 'trusted');
    await writeConfig(target, text);
  }
  await manager.reconfigure();
  if (!given)
    void vscode.window.showInformationMessage(
      `MCP Agent: added server "${name}" to ${target === 'setting' ? 'your mcpAgent.servers setting' : vscode.workspace.asRelativePath(target)}.`,
    );
}

async function pickKind(): Promise<AddServerArgs['kind'] | undefined> {
  const picked = await vscode.window.showQuickPick(
    [
      {
        label: '$(terminal) Command (stdio)',
        detail: 'A program that speaks MCP on stdin/stdout, e.g. npx -y @modelcontextprotocol/server-memory',
        choice: 'stdio' as const,
      },
      { label: '$(globe) HTTP URL', detail: 'A server at a URL (streamable HTTP, falling back to SSE)', choice: 'http' as const },
      { label: '$(package) npm package', detail: 'Runs the package with npx -y', choice: 'npm' as const },
    ],
    { title: 'Add MCP Server', ignoreFocusOut: true },
  );
  return picked?.choice;
}

function askValue(kind: AddServerArgs['kind']): Thenable<string | undefined> {
  const prompts = {
    stdio: ['Command to run (no shell: a program and its arguments)', 'npx -y @modelcontextprotocol/server-memory'],
    http: ['URL of the server', 'https://example.com/mcp'],
    npm: ['npm package name', '@modelcontextprotocol/server-memory'],
  } as const;
  const [prompt, placeHolder] = prompts[kind];
  return vscode.window.showInputBox({
    title: 'Add MCP Server',
    prompt,
    placeHolder,
    ignoreFocusOut: true,
    validateInput: (v) => {
      try {
        if (kind === 'http') entryFromUrl(v);
        else if (kind === 'stdio') entryFromCommandLine(v);
        else if (!v.trim()) return 'Type a package name';
        return undefined;
      } catch (err) {
        return messageOf(err);
      }
    },
  });
}

async function pickTarget(manager: ServerManager): Promise<string | undefined> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  const items = [
    { label: 'User settings (mcpAgent.servers)', detail: 'Yours, in every workspace; starts without asking', target: 'setting' },
    ...folders.map((f) => ({
      label: `Workspace: ${folders.length > 1 ? `${f.name}/` : ''}.vscode/mcp.json`,
      detail: "VS Code's format; shared with the workspace",
      target: join(f.uri.fsPath, '.vscode', 'mcp.json'),
    })),
    ...(manager.workspace
      ? [{ label: 'Workspace: .mcp.json', detail: "Claude Code's format; shared with the workspace", target: join(manager.workspace, '.mcp.json') }]
      : []),
  ];
  return (await vscode.window.showQuickPick(items, { title: 'Add MCP Server: where to write it', ignoreFocusOut: true }))?.target;
}

function workspaceSource(manager: ServerManager, file: string): ConfigSource {
  const known = manager.ownSources().find((s) => s.source.file === file);
  if (known) return known.source;
  if (/[\\/]\.vscode[\\/]mcp\.json$/.test(file)) return { file, format: 'vscode', origin: 'workspace' };
  if (/[\\/]\.mcp\.json$/.test(file)) return { file, format: 'claude', origin: 'workspace' };
  throw new Error(`${file} is not a .vscode/mcp.json or .mcp.json`);
}

/** The own server a command was run on, or the one picked. */
async function ownTarget(manager: ServerManager, target: Target, title: string): Promise<OwnServer | undefined> {
  if (target && typeof target === 'object' && target.own) return target.own;
  const name = typeof target === 'string' ? target : target?.status?.name;
  if (name) return manager.ownServer(name)?.server;
  const all = manager.ownSources().flatMap((s) => s.servers);
  if (all.length === 0) throw new Error('no server is defined in the mcpAgent.servers setting, .vscode/mcp.json or .mcp.json; add one with "Add Server"');
  const picked = await vscode.window.showQuickPick(
    all.map((own) => ({ label: own.definition.name, description: own.held ?? '', own })),
    { title },
  );
  return picked?.own;
}

async function setDisabled(manager: ServerManager, target: Target, disabled: boolean): Promise<void> {
  const own = await ownTarget(manager, target, disabled ? 'Disable which MCP server?' : 'Enable which MCP server?');
  if (!own) return;
  await manager.disabled.set(own.definition.source, own.definition.key, disabled);
  // Enabling a server the person once declined asks about it again rather than starting it unasked.
  if (!disabled && own.held === 'declined') await manager.trust.forget(own.definition);
  await manager.reconfigure();
}

async function openConfig(manager: ServerManager, target?: Target | { file: string; line?: number; column?: number }): Promise<void> {
  let file: string | undefined;
  let line: number | undefined;
  let column: number | undefined;
  if (target && typeof target === 'object' && 'file' in target) ({ file, line, column } = target);
  else if (target && typeof target === 'object' && target.group?.source) file = target.group.source.source.file;
  else {
    const own = target ? await ownTarget(manager, target, 'Open the config of which server?') : undefined;
    if (own) {
      ({ file } = own.definition.source);
      ({ line, column } = own.definition.position);
    } else file = await pickConfigFile(manager);
  }
  if (!file) return;
  if (file === SETTING_FILE) {
    await vscode.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: 'mcpAgent.servers', edit: true } });
    return;
  }
  const doc = existsSync(file)
    ? await vscode.workspace.openTextDocument(file)
    : await vscode.workspace.openTextDocument(vscode.Uri.file(file).with({ scheme: 'untitled' }));
  const at = new vscode.Position(Math.max(0, (line ?? 1) - 1), Math.max(0, (column ?? 1) - 1));
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(at, at) });
}

async function pickConfigFile(manager: ServerManager): Promise<string | undefined> {
  const items = manager.ownSources().map((s) => ({ label: s.label, detail: isSettingSource(s.source) ? undefined : s.source.file, file: s.source.file }));
  return (await vscode.window.showQuickPick(items, { title: 'Open which MCP config?' }))?.file;
}

async function importClaudeDesktop(manager: ServerManager, given?: string): Promise<void> {
  let file = given ?? claudeDesktopConfigPath();
  if (!given && !existsSync(file)) {
    const picked = await vscode.window.showOpenDialog({
      title: `Claude Desktop's config is not at ${file}: pick claude_desktop_config.json`,
      canSelectMany: false,
      filters: { JSON: ['json'] },
    });
    if (!picked?.[0]) return;
    file = picked[0].fsPath;
  }
  let parsed: ReturnType<typeof serversFromClaudeDesktop>;
  try {
    parsed = serversFromClaudeDesktop(await readFile(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot import ${file}: ${messageOf(err)}`, { cause: err });
  }
  const config = vscode.workspace.getConfiguration('mcpAgent');
  const current = { ...((ownSetting('servers') ?? {}) as Record<string, unknown>) };
  const added: string[] = [];
  const kept: string[] = [];
  for (const [name, entry] of Object.entries(parsed.servers)) {
    if (name in current) kept.push(name);
    else {
      current[name] = entry;
      added.push(name);
    }
  }
  if (added.length) await config.update('servers', current, vscode.ConfigurationTarget.Global);
  await manager.reconfigure();
  const parts = [
    `imported ${added.length} server${added.length === 1 ? '' : 's'} from Claude Desktop into mcpAgent.servers${added.length ? `: ${added.map(safeServerName).join(', ')}` : ''}`,
    kept.length ? `kept your existing ${kept.join(', ')}` : '',
    parsed.skipped.length ? `skipped ${parsed.skipped.join(', ')} (neither a command nor a url)` : '',
  ].filter(Boolean);
  void vscode.window.showInformationMessage(`MCP Agent: ${parts.join('; ')}.`);
}
