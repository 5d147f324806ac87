import * as vscode from 'vscode';
import type { Resource, ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/client';
import type { ServerStatus } from '../../core/mcp/types';
import { HubTree } from './hub-tree';
import { serverItem } from './server-tree-item';

type Node =
  | { kind: 'server'; status: ServerStatus }
  | { kind: 'resource'; server: string; resource: Resource }
  | { kind: 'template'; server: string; template: ResourceTemplate };

/** Resources and resource templates of the servers that offer any; empty shows the welcome text. */
export class ResourcesTree extends HubTree<Node> {
  protected children(node?: Node): Node[] {
    if (!node) {
      return this.hub
        .statuses()
        .filter((s) => s.resources.length + s.resourceTemplates.length > 0)
        .map((status) => ({ kind: 'server', status }));
    }
    if (node.kind !== 'server') return [];
    const status = this.hub.status(node.status.name) ?? node.status;
    return [
      ...status.resources.map((resource): Node => ({ kind: 'resource', server: status.name, resource })),
      ...status.resourceTemplates.map((template): Node => ({ kind: 'template', server: status.name, template })),
    ];
  }

  protected item(node: Node): vscode.TreeItem {
    if (node.kind === 'server') {
      const n = node.status.resources.length + node.status.resourceTemplates.length;
      return serverItem(node.status, `${n} resource${n === 1 ? '' : 's'}`, false);
    }
    if (node.kind === 'template') {
      const item = new vscode.TreeItem(node.template.name);
      item.description = node.template.uriTemplate;
      item.tooltip = node.template.description ?? node.template.uriTemplate;
      item.iconPath = new vscode.ThemeIcon('symbol-parameter');
      item.id = `template:${node.server}/${node.template.uriTemplate}`;
      item.command = {
        command: 'mcpAgent.openResourceTemplate',
        title: 'Open Resource…',
        arguments: [node.server, node.template.uriTemplate],
      };
      return item;
    }
    const r = node.resource;
    const item = new vscode.TreeItem(r.title ?? r.name);
    item.description = r.uri;
    item.tooltip = [r.description ?? r.uri, r.mimeType].filter(Boolean).join('\n\n');
    item.iconPath = new vscode.ThemeIcon(
      r.mimeType?.startsWith('image/')
        ? 'file-media'
        : r.mimeType && !r.mimeType.startsWith('text/') && !/json|xml|yaml|javascript/.test(r.mimeType)
          ? 'file-binary'
          : 'file-text',
    );
    item.id = `resource:${node.server}/${r.uri}`;
    item.command = { command: 'mcpAgent.openResource', title: 'Open Resource', arguments: [node.server, r.uri] };
    // "Add to Chat" in its context menu (package.json) gets this node.
    item.contextValue = 'resource';
    return item;
  }
}
