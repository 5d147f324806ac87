import * as vscode from 'vscode';
import { READ_ONLY_CALLS } from '../../common/sql-read-only';
import { needsTasks } from '../../core/mcp/tool-names';
import type { McpHub } from '../../core/mcp/hub';
import type { HubTool, ServerStatus } from '../../core/mcp/types';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { HubTree } from './hub-tree';
import { problemItem, serverItem } from './server-tree-item';

type Node = { kind: 'server'; status: ServerStatus } | { kind: 'tool'; server: string; tool: Tool } | { kind: 'problem'; status: ServerStatus };

/** Tools of every server, grouped by server, with each server's state. */
export class ToolsTree extends HubTree<Node> {
  constructor(
    hub: McpHub,
    private readonly alwaysAllowed: (tool: Pick<HubTool, 'server' | 'tool'>) => boolean,
  ) {
    super(hub);
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.hub.statuses().map((status) => ({ kind: 'server', status }));
    if (node.kind !== 'server') return [];
    const status = this.hub.status(node.status.name) ?? node.status;
    const problem: Node[] = status.state !== 'ready' && (status.error || status.detail) ? [{ kind: 'problem', status }] : [];
    return [...problem, ...status.tools.map((tool): Node => ({ kind: 'tool', server: status.name, tool }))];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'server') {
      const n = node.status.tools.length;
      const item = serverItem(node.status, `${n} tool${n === 1 ? '' : 's'}`, node.status.state === 'ready' && n > 30);
      if (n === 0 && !node.status.error && !node.status.detail) item.collapsibleState = vscode.TreeItemCollapsibleState.None;
      // VS Code remembers expansion per id: a new id per state lets a server that becomes ready open up.
      item.id = `server:${node.status.name}:${node.status.state}`;
      return item;
    }
    if (node.kind === 'problem') return problemItem(node.status) ?? new vscode.TreeItem('');
    const t = node.tool;
    const item = new vscode.TreeItem(t.name);
    item.id = `tool:${node.server}/${t.name}`;
    const readOnly = t.annotations?.readOnlyHint === true;
    const taskOnly = needsTasks(t);
    item.iconPath = new vscode.ThemeIcon(taskOnly ? 'circle-slash' : readOnly ? 'eye' : 'tools');
    item.description = taskOnly
      ? 'needs task support (not supported yet)'
      : readOnly
        ? 'read-only'
        : this.alwaysAllowed({ server: node.server, tool: t })
          ? 'always allowed'
          : typeof t._meta?.[READ_ONLY_CALLS] === 'string'
            ? 'asks before writes'
            : 'asks first';
    const tooltip = new vscode.MarkdownString();
    tooltip.appendMarkdown(`**${node.server} · ${t.title ?? t.name}**\n\n`);
    if (taskOnly) tooltip.appendText('This tool runs only as a task (MCP 2025-11-25), which MCP Agent cannot do yet: it is not offered to the model.\n\n');
    if (t.description) tooltip.appendText(`${t.description}\n\n`);
    tooltip.appendCodeblock(JSON.stringify(t.inputSchema, null, 2), 'json');
    item.tooltip = tooltip;
    item.contextValue = 'tool';
    return item;
  }
}
