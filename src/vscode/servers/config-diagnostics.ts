import * as vscode from 'vscode';
import type { ConfigDiagnostic } from '../../core/mcp/config/diagnostic';
import { isSettingSource, type ReadSource } from '../../core/mcp/config/own-server-sources';

/**
 * Problems in MCP config files as VS Code diagnostics on those files (the Problems view, squiggles
 * at the line and column). The setting has no file of its own: its problems show in the Tools view.
 */
export class ConfigDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('mcpAgent.config');

  publish(sources: readonly ReadSource[]): void {
    this.collection.clear();
    for (const s of sources) {
      if (isSettingSource(s.source) || s.diagnostics.length === 0) continue;
      this.collection.set(vscode.Uri.file(s.source.file), s.diagnostics.map(toVscode));
    }
  }

  dispose(): void {
    this.collection.dispose();
  }
}

function toVscode(d: ConfigDiagnostic): vscode.Diagnostic {
  const line = Math.max(0, (d.line ?? 1) - 1);
  const column = Math.max(0, (d.column ?? 1) - 1);
  // The whole rest of the line: the parser gives a point, and a point is hard to see.
  const range = new vscode.Range(line, column, line, d.line === undefined ? 0 : Number.MAX_SAFE_INTEGER);
  const diagnostic = new vscode.Diagnostic(range, d.message, d.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
  diagnostic.source = 'MCP Agent';
  return diagnostic;
}
