import * as vscode from 'vscode';

/** Saves come as several file events (write, rename, attribute change); this long gathers them into one reload. */
const DEBOUNCE_MS = 150;

/**
 * Calls `changed` once shortly after any MCP config of the window changes: a `.vscode/mcp.json` or
 * `.mcp.json` is created, saved or deleted, the `mcpAgent.servers` setting changes, or a folder is
 * added or removed.
 */
export class ConfigWatcher implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private watchers: vscode.FileSystemWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly changed: () => void) {
    this.watch();
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('mcpAgent.servers') && this.poke()),
      // Backs the file watcher up for saves from the editor (a watcher can miss events on some file systems).
      vscode.workspace.onDidSaveTextDocument((doc) => /(^|[\\/])(\.vscode[\\/]mcp\.json|\.mcp\.json)$/.test(doc.uri.fsPath) && this.poke()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.watch();
        this.poke();
      }),
    );
  }

  private watch(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = (vscode.workspace.workspaceFolders ?? []).map((folder) => {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '{.vscode/mcp.json,.mcp.json}'));
      w.onDidCreate(() => this.poke());
      w.onDidChange(() => this.poke());
      w.onDidDelete(() => this.poke());
      return w;
    });
  }

  private poke(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.changed();
    }, DEBOUNCE_MS);
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const w of this.watchers) w.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
