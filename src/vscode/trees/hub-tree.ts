import * as vscode from 'vscode';
import type { McpHub } from '../../core/mcp/hub';

/** What the Tools, Resources and Prompts views share: they redraw whenever the hub changes. */
export abstract class HubTree<T> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly unsubscribe: () => void;

  constructor(protected readonly hub: McpHub) {
    this.unsubscribe = hub.on('change', () => this.changed.fire());
  }

  refresh(): void {
    this.changed.fire();
  }

  abstract getChildren(node?: T): T[];
  abstract getTreeItem(node: T): vscode.TreeItem;

  dispose(): void {
    this.unsubscribe();
    this.changed.dispose();
  }
}
