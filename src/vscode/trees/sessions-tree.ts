import * as vscode from 'vscode';

/**
 * Orchestrated sub-agent sessions. The orchestrator server is not bundled yet, so there is
 * nothing to list and the view's welcome text says so; it becomes a real list with that server.
 */
export class SessionsTree implements vscode.TreeDataProvider<vscode.TreeItem> {
  getChildren(): vscode.TreeItem[] {
    return [];
  }

  getTreeItem(item: vscode.TreeItem): vscode.TreeItem {
    return item;
  }
}
