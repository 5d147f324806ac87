import * as vscode from 'vscode';
import type { ChatHistory } from '../../core/chat/chat-history';
import type { ChatMeta } from '../../core/chat/chat-meta';
import { usageLine } from '../../shared/usage-format';

/** Every chat of the workspace, newest first; the open one is marked. Click opens; rename, export and delete from the menu. */
export class ChatsTree implements vscode.TreeDataProvider<ChatMeta>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly history: ChatHistory,
    private readonly openId: () => string | undefined,
  ) {}

  private reading = false;
  /** A refresh asked for during a read: that read may predate the news, so the view reads again after it. */
  private stale = false;

  refresh(): void {
    if (this.reading) this.stale = true;
    this.changed.fire();
  }

  async getChildren(node?: ChatMeta): Promise<ChatMeta[]> {
    if (node) return [];
    this.reading = true;
    this.stale = false;
    try {
      return await this.history.list();
    } finally {
      this.reading = false;
      if (this.stale) setTimeout(() => this.refresh(), 50);
    }
  }

  getTreeItem(meta: ChatMeta): vscode.TreeItem {
    const item = new vscode.TreeItem(meta.title);
    const open = meta.id === this.openId();
    item.id = `chat:${meta.id}`;
    item.description = `${open ? 'open · ' : ''}${when(meta.updatedAt)} · ${meta.model}`;
    item.iconPath = new vscode.ThemeIcon(open ? 'comment-draft' : 'comment-discussion');
    item.contextValue = 'chat';
    const tooltip = new vscode.MarkdownString(undefined, false);
    tooltip.appendText(meta.title);
    tooltip.appendMarkdown('\n\n');
    tooltip.appendText(`Started ${new Date(meta.createdAt).toLocaleString()} · last used ${new Date(meta.updatedAt).toLocaleString()}\n${meta.model} · ${usageLine(meta.usage, meta.unpricedTurns ?? 0)}\nid ${meta.id}`);
    item.tooltip = tooltip;
    item.command = { command: 'mcpAgent.openChatFromHistory', title: 'Open Chat', arguments: [meta] };
    item.accessibilityInformation = { label: `${meta.title}, ${open ? 'open, ' : ''}last used ${when(meta.updatedAt)}` };
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** "14:05" today, "Mon 14:05" this week, else the date. */
export function when(at: number, now = Date.now()): string {
  const d = new Date(at);
  const time = d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  const day = 24 * 3600 * 1000;
  if (new Date(now).toDateString() === d.toDateString()) return time;
  if (now - at < 6 * day) return `${d.toLocaleDateString(undefined, { weekday: 'short' })} ${time}`;
  return d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}
