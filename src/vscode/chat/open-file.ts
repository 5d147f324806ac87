import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import * as vscode from 'vscode';
import { isInside } from '../../node/path-inside';

/**
 * Opens a file an answer named (`src/app.py:12`). The path comes from model output through the
 * webview, so it must resolve, links followed, to a file inside the workspace; anything else is
 * refused with why.
 */
export async function openWorkspaceFile(workspace: string | undefined, path: string, line: number | undefined): Promise<void> {
  if (!workspace) throw new Error('Open a folder first: file links open files of the workspace.');
  const root = await realpath(workspace);
  const real = await realpath(resolve(root, path)).catch(() => undefined);
  if (!real || !isInside(root, real)) throw new Error(`${path} is not a file in this workspace.`);
  if (!(await stat(real)).isFile()) throw new Error(`${path} is a folder, not a file.`);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(real));
  const at = line ? new vscode.Position(Math.min(line, doc.lineCount) - 1, 0) : undefined;
  await vscode.window.showTextDocument(doc, { preview: true, ...(at ? { selection: new vscode.Range(at, at) } : {}) });
}
