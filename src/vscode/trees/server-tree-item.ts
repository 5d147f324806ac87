import * as vscode from 'vscode';
import type { ServerStatus } from '../../core/mcp/types';

const STATE_ICON: Record<ServerStatus['state'], [string, string | undefined]> = {
  starting: ['loading~spin', undefined],
  ready: ['server-process', 'testing.iconPassed'],
  error: ['error', 'testing.iconFailed'],
  stopped: ['circle-slash', undefined],
};

/** What the tooltip of a server the person configured adds: where it came from and what it runs. */
export interface ServerOrigin {
  /** The config file (or the setting) that defines it. */
  from: string;
  /** The command line or URL. */
  launch: string;
  /** The last lines it wrote to stderr, for a server that failed. */
  stderr?: string;
}

/** A server's row, shared by the Tools, Resources and Prompts views: its name, state and why. */
export function serverItem(status: ServerStatus, count: string, collapsed = true, origin?: ServerOrigin): vscode.TreeItem {
  const item = new vscode.TreeItem(status.name, collapsed ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded);
  const [icon, color] = STATE_ICON[status.state];
  item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
  item.description = status.state === 'ready' ? `ready · ${count}` : status.state === 'starting' ? startingText(status) : status.state;
  // `-http` lets Sign Out of Server show on remote servers only; `-own` stays last (menus match /-own$/).
  const http = status.transport === 'streamable-http' || status.transport === 'sse';
  item.contextValue = `server-${status.state}${http ? '-http' : ''}${origin ? '-own' : ''}`;
  item.id = `server:${status.name}`;
  const tooltip = new vscode.MarkdownString(`**${status.name}** — ${status.state}`);
  if (status.detail) tooltip.appendMarkdown(`\n\n${escape(status.detail)}`);
  if (status.error) tooltip.appendMarkdown(`\n\n${escape(status.error)}`);
  const speaks = speaksLine(status);
  if (speaks) tooltip.appendMarkdown(`\n\n${escape(speaks)}`);
  if (origin) {
    tooltip.appendMarkdown(`\n\nFrom ${escape(origin.from)}\n\n`);
    tooltip.appendCodeblock(origin.launch, 'shell');
    // The error usually quotes stderr already; a server that failed without saying so in it still shows its last lines.
    if (status.state === 'error' && origin.stderr && !status.error?.includes(origin.stderr.trim().slice(-80))) {
      tooltip.appendMarkdown('\n\nLast lines of its stderr:\n\n');
      tooltip.appendCodeblock(origin.stderr, 'text');
    }
  }
  if (status.state === 'error' || status.detail) {
    // The log holds what it said and what happened to it; the link opens it from the tooltip.
    const args = encodeURIComponent(JSON.stringify([status.name]));
    tooltip.appendMarkdown(
      `\n\nIts log has the details: [Show Server Log](command:mcpAgent.showServerLog?${args}) (output channel "MCP Agent: ${escape(status.name)}").`,
    );
    tooltip.isTrusted = { enabledCommands: ['mcpAgent.showServerLog'] };
  }
  item.tooltip = tooltip;
  return item;
}

/** "starting", or "starting · try 2" once a try was too slow or the server exited before it was up. */
function startingText(status: ServerStatus): string {
  const n = status.attempt?.number ?? 1;
  return n > 1 ? `starting · try ${n}` : 'starting';
}

const TRANSPORT: Record<NonNullable<ServerStatus['transport']>, string> = { stdio: 'stdio', 'streamable-http': 'streamable HTTP', sse: 'HTTP+SSE' };

/** "everything 2.0.0 · MCP 2026-07-28 (stateless) over stdio": who answers, in which protocol, over what. */
function speaksLine(status: ServerStatus): string | undefined {
  if (status.state !== 'ready' || !status.protocolVersion) return undefined;
  const era = status.era === 'modern' ? ' (stateless)' : '';
  const over = status.transport ? ` over ${TRANSPORT[status.transport]}` : '';
  return `${status.serverVersion ? `${status.serverVersion} · ` : ''}MCP ${status.protocolVersion}${era}${over}`;
}

/** A child row that explains a server in error (or still starting) in words. */
export function problemItem(status: ServerStatus): vscode.TreeItem | undefined {
  const text = status.error ?? status.detail;
  if (!text) return undefined;
  const item = new vscode.TreeItem(text.split('\n')[0]!.slice(0, 200));
  item.tooltip = text;
  item.iconPath = new vscode.ThemeIcon(status.state === 'error' ? 'warning' : 'info');
  item.id = `problem:${status.name}`;
  return item;
}

export function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
