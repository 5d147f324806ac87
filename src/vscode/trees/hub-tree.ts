import * as vscode from 'vscode';
import type { McpHub } from '../../core/mcp/hub/hub';
import { DrawWatch, type RowShape } from './draw-watch';

/** Hub changes closer together than this redraw once. */
const SETTLE_MS = 50;
/** Deep enough for the Tools view's source → server → tool. */
const MAX_DEPTH = 3;

/**
 * What the Tools, Resources and Prompts views share: they redraw when what they show changed. A redraw the
 * view did not need is not free: VS Code drops the element handles of the last draw, and a request for the
 * children of an expanded row still on its way then fails ("No tree item with id ... found"), leaving that
 * row open and empty until the next redraw, which may never come once the servers have settled.
 */
export abstract class HubTree<T extends object> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly unsubscribe: () => void;
  private timer: NodeJS.Timeout | undefined;
  /** What the view shows, as of the last redraw. */
  private shown = '';
  private readonly watch = new DrawWatch<T>(() => this.changed.fire());

  constructor(protected readonly hub: McpHub) {
    this.unsubscribe = hub.on('change', () => this.settle());
  }

  /** The view that shows this tree: an open row VS Code drew empty after a redraw is drawn again. */
  watchView(view: vscode.TreeView<T>, log?: Pick<vscode.LogOutputChannel, 'info'>): void {
    this.watch.attach(view, log && ((message) => log.info(message)));
  }

  getChildren(node?: T): T[] {
    if (node) this.watch.asked(node);
    return this.children(node);
  }

  getTreeItem(node: T): vscode.TreeItem {
    const item = this.item(node);
    this.watch.drawn(node, item.id, shapeOf(item));
    return item;
  }

  /** Redraws now (something the hub does not know changed, e.g. an approval). */
  refresh(): void {
    this.shown = this.signature();
    this.changed.fire();
  }

  /** The rows under a row (the top rows without one). */
  protected abstract children(node?: T): T[];
  /** How a row is drawn. */
  protected abstract item(node: T): vscode.TreeItem;

  dispose(): void {
    clearTimeout(this.timer);
    this.watch.dispose();
    this.unsubscribe();
    this.changed.dispose();
  }

  private settle(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const signature = this.signature();
      if (signature === this.shown) return;
      this.shown = signature;
      this.changed.fire();
    }, SETTLE_MS);
  }

  /** Every row the view can show, as the view would draw it. */
  private signature(): string {
    const rows: unknown[] = [];
    const walk = (node: T | undefined, depth: number): void => {
      for (const child of this.children(node)) {
        const item = this.item(child);
        const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : item.tooltip;
        const icon = item.iconPath instanceof vscode.ThemeIcon ? `${item.iconPath.id}/${item.iconPath.color?.id ?? ''}` : String(item.iconPath ?? '');
        const label = typeof item.label === 'object' ? item.label.label : item.label;
        rows.push([
          depth,
          item.id,
          label,
          item.description,
          tooltip,
          item.contextValue,
          item.collapsibleState,
          icon,
          item.command?.command,
          item.checkboxState,
        ]);
        if (depth < MAX_DEPTH) walk(child, depth + 1);
      }
    };
    walk(undefined, 1);
    return JSON.stringify(rows);
  }
}

function shapeOf(item: vscode.TreeItem): RowShape {
  const state = item.collapsibleState ?? vscode.TreeItemCollapsibleState.None;
  return state === vscode.TreeItemCollapsibleState.None ? 'leaf' : state === vscode.TreeItemCollapsibleState.Expanded ? 'open' : 'closed';
}
