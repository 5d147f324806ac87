import * as vscode from 'vscode';
import type { ChatHistory } from '../../core/chat/chat-history';
import type { ChatMeta } from '../../core/chat/chat-meta';
import { usageLine } from '../../common/usage-format';

/** Opens the chat selected in the Chats view: what a row's click runs. */
export const OPEN_SELECTED_CHAT = 'mcpAgent.openSelectedChat';

/** Every chat of the workspace, newest first; the open one is marked. Click opens; rename, export and delete from the menu. */
export class ChatsTree implements vscode.TreeDataProvider<ChatMeta>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly history: ChatHistory,
    private readonly openId: () => string | undefined,
  ) {}

  /** What the rows last showed: a refresh that would draw the same rows draws nothing (a redraw under the pointer can eat a click). */
  private shown = '';
  /** The list as last read, which the rows are drawn from. */
  private list: readonly ChatMeta[] | undefined;
  private checking: Promise<void> = Promise.resolve();

  /** Reads the list (after the reads before it) and redraws only when a row would look different. */
  refresh(): void {
    this.checking = this.checking.then(async () => {
      const list = await this.history.list().catch(() => undefined);
      if (!list) return;
      this.list = list;
      const signature = this.signature(list);
      if (signature === this.shown) return;
      this.shown = signature;
      this.changed.fire();
    });
  }

  /**
   * The rows, from the list read before the redraw was asked for: VS Code cancels a fetch of the rows
   * that is still waiting when the next redraw comes, and a cancelled fetch leaves the rows drawn with
   * handles it no longer knows, so a click on one runs nothing. Answered at once, a fetch has no wait.
   */
  getChildren(node?: ChatMeta): ChatMeta[] | Promise<ChatMeta[]> {
    if (node) return [];
    if (this.list) return this.rows(this.list);
    return this.history.list().then((list) => this.rows((this.list ??= list)));
  }

  private rows(list: readonly ChatMeta[]): ChatMeta[] {
    this.shown = this.signature(list);
    return [...list];
  }

  private signature(list: readonly ChatMeta[]): string {
    const open = this.openId();
    return list.map((m) => [m.id, m.title, when(m.updatedAt), m.model, m.id === open].join('\u0000')).join('\n');
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
    tooltip.appendText(
      `Started ${new Date(meta.createdAt).toLocaleString()} · last used ${new Date(meta.updatedAt).toLocaleString()}\n${meta.model} · ${usageLine(meta.usage, meta.unpricedTurns ?? 0)}\nid ${meta.id}`,
    );
    item.tooltip = tooltip;
    // The clicked row is the selection when its command runs (see OPEN_SELECTED_CHAT).
    item.command = { command: OPEN_SELECTED_CHAT, title: 'Open Chat' };
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
