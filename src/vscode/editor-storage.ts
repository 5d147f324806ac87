import { basename, dirname } from 'node:path';
import type * as vscode from 'vscode';

/**
 * The editor's folders that hold this extension's data, for run_code's sandbox to hide (agent-home.ts,
 * EDITOR_STORAGE_ENV). Where VS Code's usual layout shows, the whole of each: `User/globalStorage` (every
 * extension's storage, and `state.vscdb`, the editor's secret store with the extension's keys) and
 * `User/workspaceStorage` (every workspace's, with their checkpoints); otherwise the extension's own folders.
 * Its log folder too.
 */
export function editorStorageFolders(context: Pick<vscode.ExtensionContext, 'globalStorageUri' | 'storageUri' | 'logUri'>): string[] {
  const global = context.globalStorageUri.fsPath;
  const folders = [basename(dirname(global)) === 'globalStorage' ? dirname(global) : global];
  const workspace = context.storageUri?.fsPath;
  if (workspace) folders.push(basename(dirname(dirname(workspace))) === 'workspaceStorage' ? dirname(dirname(workspace)) : workspace);
  folders.push(context.logUri.fsPath);
  return folders;
}
