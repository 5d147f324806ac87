import * as vscode from 'vscode';
import type { McpHub } from '../core/mcp/hub/hub';
import { HELD_TEXT } from '../core/mcp/config/own-servers';
import type { OwnServerView } from './trees/tools-tree';

/**
 * One status-bar item: how many MCP servers are ready of all that run (bundled and the person's own),
 * a warning when one is in error; the tooltip also lists the defined servers that are not started.
 */
export class ServerStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('mcpAgent.servers', vscode.StatusBarAlignment.Left, 50);
  private readonly unsubscribe: () => void;
  private readonly sub: vscode.Disposable | undefined;

  constructor(
    private readonly hub: McpHub,
    private readonly own?: Pick<OwnServerView, 'ownSources' | 'onDidChangeSources'>,
  ) {
    this.item.name = 'MCP Agent Servers';
    this.item.command = 'mcpAgent.tools.focus';
    this.unsubscribe = hub.on('change', () => this.update());
    this.sub = own?.onDidChangeSources(() => this.update());
    this.update();
  }

  private update(): void {
    const statuses = this.hub.statuses();
    const held = (this.own?.ownSources() ?? []).flatMap((s) => s.servers.filter((o) => o.held));
    if (statuses.length === 0 && held.length === 0) {
      this.item.hide();
      return;
    }
    const ready = statuses.filter((s) => s.state === 'ready').length;
    const failed = statuses.filter((s) => s.state === 'error');
    const starting = statuses.some((s) => s.state === 'starting');
    const icon = failed.length > 0 ? '$(warning)' : starting ? '$(loading~spin)' : '$(server-process)';
    this.item.text = `${icon} MCP ${ready}/${statuses.length}`;
    this.item.backgroundColor = failed.length > 0 ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const tooltip = new vscode.MarkdownString('**MCP servers**\n\n');
    for (const s of statuses) tooltip.appendMarkdown(`- ${s.name}: ${s.state}${s.state === 'ready' ? ` (${s.tools.length} tools)` : ''}\n`);
    for (const o of held) tooltip.appendMarkdown(`- ${o.definition.name}: ${HELD_TEXT[o.held!]}\n`);
    tooltip.appendMarkdown('\nClick to show the Tools view.');
    this.item.tooltip = tooltip;
    this.item.show();
  }

  dispose(): void {
    this.unsubscribe();
    this.sub?.dispose();
    this.item.dispose();
  }
}
