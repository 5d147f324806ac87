import * as vscode from 'vscode';
import type { Prompt } from '@modelcontextprotocol/client';
import type { ServerStatus } from '../../core/mcp/types';
import { HubTree } from './hub-tree';
import { serverItem } from './server-tree-item';

type Node = { kind: 'server'; status: ServerStatus } | { kind: 'prompt'; server: string; prompt: Prompt };

/** Prompts the servers offer; clicking one fills in its arguments and sends it to the chat. */
export class PromptsTree extends HubTree<Node> {
  protected children(node?: Node): Node[] {
    if (!node) {
      return this.hub
        .statuses()
        .filter((s) => s.prompts.length > 0)
        .map((status) => ({ kind: 'server', status }));
    }
    if (node.kind !== 'server') return [];
    const status = this.hub.status(node.status.name) ?? node.status;
    return status.prompts.map((prompt): Node => ({ kind: 'prompt', server: status.name, prompt }));
  }

  protected item(node: Node): vscode.TreeItem {
    if (node.kind === 'server') {
      const n = node.status.prompts.length;
      return serverItem(node.status, `${n} prompt${n === 1 ? '' : 's'}`, false);
    }
    const p = node.prompt;
    const item = new vscode.TreeItem(p.title ?? p.name);
    const args = p.arguments ?? [];
    item.description = args.map((a) => (a.required ? a.name : `${a.name}?`)).join(', ');
    item.tooltip = p.description ?? p.name;
    item.iconPath = new vscode.ThemeIcon('comment-discussion');
    item.id = `prompt:${node.server}/${p.name}`;
    item.command = { command: 'mcpAgent.usePrompt', title: 'Use Prompt', arguments: [node.server, p.name] };
    return item;
  }
}
