import * as vscode from 'vscode';
import type { McpHub } from '../../core/mcp/hub/hub';
import { ORCHESTRATOR, type OrchestratorClient, type SessionInfo } from '../../core/sessions/orchestrator-client';
import { when } from './chats-tree';
import { messageOf } from '../../node/error-message';

type Node = { kind: 'session'; session: SessionInfo } | { kind: 'message'; text: string; tooltip?: string };

const LIST_URI = 'sessions://list';

/** Without a subscription, a running session's row is read again this often. */
const RUNNING_REFRESH_MS = 1500;

const ICONS: Record<string, vscode.ThemeIcon> = {
  running: new vscode.ThemeIcon('sync~spin'),
  done: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  error: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  interrupted: new vscode.ThemeIcon('debug-pause'),
};

/**
 * The orchestrator's sessions: agent, status (a spinner while running), last activity and tokens.
 * It reads them again when the server's lists change and, while any session runs, every
 * RUNNING_REFRESH_MS.
 */
export class SessionsTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private timer: NodeJS.Timeout | undefined;
  private readonly offs: Array<() => void>;
  /** Subscribed to `sessions://list`: its `updated` notifications drive the view, no polling needed. */
  private subscribed = false;
  /** Sessions as last read, for the commands (Resume offers these). */
  latest: SessionInfo[] = [];

  constructor(
    private readonly hub: McpHub,
    private readonly client: OrchestratorClient,
  ) {
    this.offs = [
      hub.on('change', () => {
        this.subscribe();
        this.refresh();
      }),
      hub.on('resourceUpdated', (server, uri) => server === ORCHESTRATOR && uri === LIST_URI && this.refresh()),
    ];
  }

  /** Once the orchestrator is ready; the hub keeps the subscription across its restarts. */
  private subscribe(): void {
    if (this.subscribed || !this.client.ready) return;
    this.subscribed = true;
    this.hub.subscribeResource(ORCHESTRATOR, LIST_URI).catch(() => (this.subscribed = false));
  }

  /** Told after each read, so open transcripts can follow a running session. */
  onRead: (() => void) | undefined;

  private reading = false;
  /** A refresh asked for while a read was under way: that read may be older than the news, so read again after it. */
  private stale = false;

  refresh(): void {
    if (this.reading) this.stale = true;
    this.changed.fire();
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (node) return [];
    if (!this.client.ready) return [];
    this.reading = true;
    this.stale = false;
    try {
      this.latest = await this.client.sessions();
    } catch (err) {
      const text = messageOf(err);
      return [{ kind: 'message', text: text.split('\n')[0]!.slice(0, 200), tooltip: text }];
    } finally {
      this.reading = false;
    }
    // Without the subscription (an older orchestrator), a running session is read again on a timer.
    this.schedule(this.stale || (!this.subscribed && this.latest.some((s) => s.status === 'running')));
    this.onRead?.();
    return this.latest.map((session) => ({ kind: 'session', session }));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'message') {
      const item = new vscode.TreeItem(node.text);
      item.iconPath = new vscode.ThemeIcon('info');
      item.tooltip = node.tooltip;
      return item;
    }
    const s = node.session;
    const item = new vscode.TreeItem(s.name);
    item.id = `session:${s.name}`;
    item.description = `${s.agent} · ${s.status} · ${when(Date.parse(s.last_activity))} · ${s.tokens.toLocaleString()} tokens`;
    item.iconPath = ICONS[s.status] ?? new vscode.ThemeIcon('circle-outline');
    item.contextValue = s.status === 'running' ? 'session-running' : 'session';
    item.tooltip = `${s.name}: ${s.agent} (${s.model ?? 'default model'})\n${s.status}${s.detail ? `: ${s.detail}` : ''}\n${s.turns} turn${s.turns === 1 ? '' : 's'}, ${s.tokens.toLocaleString()} tokens${s.cost_usd ? `, $${s.cost_usd.toFixed(4)}` : ''}\nlast activity ${new Date(s.last_activity).toLocaleString()}`;
    item.command = { command: 'mcpAgent.openSessionTranscript', title: 'Open Transcript', arguments: [s.name] };
    item.accessibilityInformation = { label: `${s.name}, ${s.agent}, ${s.status}` };
    return item;
  }

  private schedule(running: boolean): void {
    clearTimeout(this.timer);
    this.timer = running ? setTimeout(() => this.refresh(), RUNNING_REFRESH_MS) : undefined;
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const off of this.offs) off();
    this.changed.dispose();
  }
}
