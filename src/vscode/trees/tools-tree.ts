import * as vscode from 'vscode';
import { READ_ONLY_CALLS } from '../../node/sql-read-only';
import type { ConfigDiagnostic } from '../../core/mcp/config/diagnostic';
import { launchLine } from '../../core/mcp/config/definition-summary';
import type { McpHub } from '../../core/mcp/hub/hub';
import type { ToolHost } from '../../core/agent/types';
import { STATE_TEXT, toolStates, type ToolState, type ToolStates } from '../../core/tool-offer/tool-states';
import type { WorkspaceToolChoices } from '../servers/tool-choices-store';
import type { HubTool, ServerStatus } from '../../core/mcp/types';
import type { Tool } from '@modelcontextprotocol/client';
import { HELD_TEXT, type OwnServer, type OwnSource } from '../../core/mcp/config/own-servers';
import { isSettingSource } from '../../core/mcp/config/own-server-sources';
import { HubTree } from './hub-tree';
import { editorReads, HOST_SETTING } from '../servers/editor-mcp';
import { bundledStatuses, fromText, serverGroups, type ServerGroup } from './server-groups';
import { escape, problemItem, serverItem } from './server-tree-item';

/** The tools as the model sees them (the chat's host) and the person's choices about them. */
export interface ModelToolsView {
  host: ToolHost;
  choices: WorkspaceToolChoices;
}

/** What the Tools view needs of the person's own servers (ServerManager). */
export interface OwnServerView {
  workspace: string | undefined;
  ownSources(): readonly OwnSource[];
  onDidChangeSources: vscode.Event<void>;
}

export type ToolsNode =
  | { kind: 'group'; group: ServerGroup }
  | { kind: 'server'; status: ServerStatus; own?: OwnServer }
  | { kind: 'held'; own: OwnServer }
  | { kind: 'diagnostic'; source: OwnSource; diagnostic: ConfigDiagnostic }
  | { kind: 'tool'; server: string; tool: Tool }
  | { kind: 'problem'; status: ServerStatus };

/**
 * Tools of every server, grouped by server, with each server's state and where each tool stands for
 * the model (loaded, found by search, turned off, for its app only). Each server and tool has a
 * checkbox: unticked, it is never sent to the model (remembered per workspace); a tool can be pinned to
 * go in full with every request. With servers from a config file or the setting, servers are grouped by
 * where they came from (Bundled, the setting, each file), with the servers not started and the file's
 * problems in its group.
 */
export class ToolsTree extends HubTree<ToolsNode> {
  private readonly subs: Array<{ dispose(): void }> = [];
  /** Where every tool stands, worked out once per change (a plan over thousands of tools is not free). */
  private states: ToolStates | undefined;

  constructor(
    hub: McpHub,
    private readonly alwaysAllowed: (tool: Pick<HubTool, 'server' | 'tool'>) => boolean,
    private readonly model: ModelToolsView,
    private readonly own?: OwnServerView,
  ) {
    super(hub);
    const forget = hub.on('change', () => (this.states = undefined));
    this.subs.push(
      { dispose: forget },
      model.choices.onDidChange(() => this.refresh()),
    );
    if (own) this.subs.push(own.onDidChangeSources(() => this.refresh()));
  }

  override refresh(): void {
    this.states = undefined;
    super.refresh();
  }

  /** A checkbox ticked or cleared: that server or tool is offered to the model, or not. */
  async onCheckbox(items: ReadonlyArray<readonly [ToolsNode, vscode.TreeItemCheckboxState]>): Promise<void> {
    for (const [node, checked] of items) {
      const off = checked === vscode.TreeItemCheckboxState.Unchecked;
      if (node.kind === 'server') await this.model.choices.setOff(node.status.name, undefined, off);
      if (node.kind === 'tool') await this.model.choices.setOff(node.server, node.tool.name, off);
    }
  }

  private toolStates(): ToolStates {
    this.states ??= toolStates(this.hub.statuses(), this.model.host, this.model.choices);
    return this.states;
  }

  protected children(node?: ToolsNode): ToolsNode[] {
    const sources = this.own?.ownSources() ?? [];
    if (!node) {
      const groups = serverGroups(this.hub.statuses(), sources);
      // Only the bundled servers: no headings, as before anyone configured a server.
      if (groups.length <= 1 && !groups.some((g) => g.source)) return this.hub.statuses().map((status) => ({ kind: 'server', status }));
      return groups.map((group) => ({ kind: 'group', group }));
    }
    if (node.kind === 'group') return this.groupChildren(node.group, sources);
    if (node.kind !== 'server') return [];
    const status = this.hub.status(node.status.name) ?? node.status;
    const problem: ToolsNode[] = status.state !== 'ready' && (status.error || status.detail) ? [{ kind: 'problem', status }] : [];
    return [...problem, ...status.tools.map((tool): ToolsNode => ({ kind: 'tool', server: status.name, tool }))];
  }

  private groupChildren(group: ServerGroup, sources: readonly OwnSource[]): ToolsNode[] {
    if (!group.source) return bundledStatuses(this.hub.statuses(), sources).map((status) => ({ kind: 'server', status }));
    const source = group.source;
    const servers = source.servers.map((own): ToolsNode => {
      const status = own.config && this.hub.status(own.definition.name);
      return status ? { kind: 'server', status, own } : { kind: 'held', own };
    });
    return [...servers, ...source.diagnostics.map((diagnostic): ToolsNode => ({ kind: 'diagnostic', source, diagnostic }))];
  }

  protected item(node: ToolsNode): vscode.TreeItem {
    switch (node.kind) {
      case 'group':
        return groupItem(
          node.group,
          this.groupChildren(node.group, this.own?.ownSources() ?? []).filter((c) => c.kind === 'server' || c.kind === 'held').length,
        );
      case 'server':
        return this.serverRow(node.status, node.own);
      case 'held':
        return this.heldItem(node.own);
      case 'diagnostic':
        return diagnosticItem(node.source, node.diagnostic);
      case 'problem':
        return problemItem(node.status) ?? new vscode.TreeItem('');
      case 'tool':
        return this.toolItem(node.server, node.tool, this.toolStates().state(node.server, node.tool));
    }
  }

  private serverRow(status: ServerStatus, own: OwnServer | undefined): vscode.TreeItem {
    const n = status.tools.length;
    const origin = own && { from: fromText(own, this.own?.workspace), launch: launchLine(own.definition), stderr: this.hub.stderr(status.name, 1500) };
    const off = this.model.choices.isOff(status.name);
    const item = serverItem(
      status,
      `${n.toLocaleString('en-US')} tool${n === 1 ? '' : 's'}${this.forModel(status, off)}`,
      status.state === 'ready' && n > 30,
      origin,
    );
    if (status.state === 'ready' && n > 0) {
      item.checkboxState = {
        state: off ? vscode.TreeItemCheckboxState.Unchecked : vscode.TreeItemCheckboxState.Checked,
        tooltip: off ? 'Turned off for the model: tick to offer its tools' : 'Offered to the model: untick to turn off all its tools',
      };
    }
    if (n === 0 && !status.error && !status.detail) item.collapsibleState = vscode.TreeItemCollapsibleState.None;
    // VS Code remembers expansion per id: a new id per state lets a server that becomes ready open up.
    item.id = `server:${status.name}:${status.state}`;
    return item;
  }

  private heldItem(own: OwnServer): vscode.TreeItem {
    const d = own.definition;
    const item = new vscode.TreeItem(d.name);
    const why = HELD_TEXT[own.held ?? 'unanswered-trust'];
    item.description = why;
    item.iconPath = new vscode.ThemeIcon(own.held === 'disabled' ? 'circle-slash' : 'shield');
    item.id = `held:${d.source.file}:${d.key}`;
    item.contextValue = `held-${own.held}`;
    const tooltip = new vscode.MarkdownString(`**${escape(d.name)}** — ${escape(why)}\n\nFrom ${escape(fromText(own, this.own?.workspace))}\n\n`);
    tooltip.appendCodeblock(launchLine(d), 'shell');
    item.tooltip = tooltip;
    return item;
  }

  /** What the server's row adds about the model: turned off, or how many of its tools are loaded. */
  private forModel(status: ServerStatus, off: boolean): string {
    if (status.state !== 'ready' || status.tools.length === 0) return '';
    if (off) return ' · turned off';
    const states = this.toolStates();
    const loaded = status.tools.filter((t) => states.state(status.name, t) === 'loaded').length;
    return states.plan.deferred.length > 0 ? ` · ${loaded.toLocaleString('en-US')} loaded` : '';
  }

  private toolItem(server: string, t: Tool, state: ToolState): vscode.TreeItem {
    const item = new vscode.TreeItem(t.name);
    item.id = `tool:${server}/${t.name}`;
    const readOnly = t.annotations?.readOnlyHint === true;
    const pinned = this.model.choices.isPinned(server, t.name);
    const usable = state === 'loaded' || state === 'deferred';
    item.iconPath = new vscode.ThemeIcon(
      state === 'invalid-schema' ? 'warning' : !usable ? 'circle-slash' : pinned ? 'pinned' : state === 'deferred' ? 'search' : readOnly ? 'eye' : 'tools',
    );
    const approval = readOnly
      ? 'read-only'
      : this.alwaysAllowed({ server, tool: t })
        ? 'always allowed'
        : typeof t._meta?.[READ_ONLY_CALLS] === 'string'
          ? 'asks before writes'
          : 'asks first';
    item.description = usable ? `${STATE_TEXT[state]}${pinned ? ', pinned' : ''} · ${approval}` : STATE_TEXT[state];
    const tooltip = new vscode.MarkdownString();
    tooltip.appendMarkdown(`**${server} · ${t.title ?? t.name}**\n\n`);
    tooltip.appendText(`${STATE_NOTE[state]}\n\n`);
    const invalid = state === 'invalid-schema' ? this.hub.status(server)?.invalidSchemas?.[t.name] : undefined;
    if (invalid) tooltip.appendText(`Why: ${invalid}\n\n`);
    if (t.description) tooltip.appendText(`${t.description}\n\n`);
    tooltip.appendCodeblock(JSON.stringify(t.inputSchema, null, 2), 'json');
    item.tooltip = tooltip;
    // A tool turned off with its whole server has no box of its own: the server's box brings it back.
    if (usable || (state === 'off' && !this.model.choices.isOff(server))) {
      item.checkboxState = usable ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked;
    }
    item.contextValue = `tool-${state}${pinned ? '-pinned' : ''}`;
    return item;
  }

  override dispose(): void {
    for (const s of this.subs) s.dispose();
    super.dispose();
  }
}

/** The tooltip's word on where a tool stands for the model. */
const STATE_NOTE: Record<ToolState, string> = {
  loaded: 'Sent to the model in full with every request.',
  deferred: 'Not sent with every request: the model finds it by searching the tools when it needs it. Pin it to send it always.',
  off: 'Turned off for the model in this workspace: never sent, and the model cannot call it.',
  'app-only': "Made for its server's app view (_meta.ui.visibility): never offered to the model.",
  'needs-tasks': 'This tool runs only as a task (MCP 2025-11-25), but its server does not declare tasks for tools/call: it is not offered to the model.',
  'invalid-schema':
    'Its inputSchema is not valid JSON Schema, and the Messages API refuses a whole request with one such tool: it is not offered to the model. Its server should fix it.',
};

function groupItem(group: ServerGroup, servers: number): vscode.TreeItem {
  // The bundled servers are always there; what the person configured is what they came to look at.
  const item = new vscode.TreeItem(
    group.label,
    group.kind === 'bundled' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded,
  );
  item.id = `group:${group.id}`;
  item.contextValue = `serverSource-${group.kind}`;
  item.iconPath = new vscode.ThemeIcon(group.kind === 'bundled' ? 'package' : group.kind === 'setting' ? 'settings-gear' : 'json');
  const errors = group.source?.diagnostics.filter((d) => d.severity === 'error').length ?? 0;
  item.description = [`${servers} server${servers === 1 ? '' : 's'}`, errors ? `${errors} problem${errors === 1 ? '' : 's'}` : ''].filter(Boolean).join(' · ');
  item.tooltip =
    group.kind === 'bundled'
      ? 'The servers MCP Agent ships with'
      : group.kind === 'setting'
        ? 'Your mcpAgent.servers setting'
        : `${group.source?.source.file ?? ''}${group.source ? hostNote(group.source) : ''}`;
  if (group.source && group.kind === 'file') item.resourceUri = vscode.Uri.file(group.source.source.file);
  return item;
}

/** Which host runs a file's servers, where VS Code's own chat reads that file too. */
function hostNote(source: OwnSource): string {
  if (!editorReads(source.source)) return '';
  return source.servers.some((s) => s.held === 'editor-host')
    ? `\n\nLeft to VS Code's own MCP host (${HOST_SETTING}): MCP Agent's chat neither starts nor uses them.`
    : `\n\nRun by MCP Agent for its chat. VS Code's own chat reads this file too and starts its own copies after its own approval; ${HOST_SETTING} chooses one host.`;
}

function diagnosticItem(source: OwnSource, d: ConfigDiagnostic): vscode.TreeItem {
  const item = new vscode.TreeItem(d.message);
  // The setting's lines are those of a copy, not of settings.json: only a file's line is worth showing.
  if (isSettingSource(source.source)) d = { ...d, line: undefined, column: undefined };
  item.description = d.line === undefined ? undefined : `line ${d.line}`;
  item.iconPath = new vscode.ThemeIcon(
    d.severity === 'error' ? 'error' : 'warning',
    new vscode.ThemeColor(d.severity === 'error' ? 'problemsErrorIcon.foreground' : 'problemsWarningIcon.foreground'),
  );
  item.tooltip = `${d.message}${d.line === undefined ? '' : ` (line ${d.line}, column ${d.column ?? 1})`}`;
  item.id = `diagnostic:${source.source.file}:${d.line ?? 0}:${d.column ?? 0}:${d.message.slice(0, 60)}`;
  item.command = { command: 'mcpAgent.openServerConfig', title: 'Open Config', arguments: [{ file: source.source.file, line: d.line, column: d.column }] };
  return item;
}
