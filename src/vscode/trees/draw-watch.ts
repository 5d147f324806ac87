/** How long after VS Code drew an open row it may take to ask for that row's children. */
export const ASK_WITHIN_MS = 1500;
/** Misses in a row after which a row counts as closed here (the person closed it before a reload). */
export const MISSES_BEFORE_CLOSED = 3;

/** How a row was drawn: no children, closed, or open (VS Code then asks for its children). */
export type RowShape = 'leaf' | 'closed' | 'open';

/** What the watch needs of a vscode.TreeView (structurally one). */
export interface WatchedView<T> {
  readonly visible: boolean;
  readonly title?: string;
  onDidExpandElement(listener: (e: { readonly element: T }) => unknown): { dispose(): void };
  onDidCollapseElement(listener: (e: { readonly element: T }) => unknown): { dispose(): void };
}

/**
 * Notices an open row whose children VS Code never asked for, and asks for one more redraw.
 *
 * VS Code drops a tree's element handles on every full redraw. A request for an open row's children
 * that was still on its way (the extension host busy, say, starting five servers) then meets an
 * unknown handle: VS Code logs "No tree item with id … found", answers no children, and draws the row
 * open and empty. Nothing redraws it once the servers have settled: a CI run's Tools view kept its
 * "mcpAgent.servers" group empty for a minute with the server ready beneath it. A redraw with nothing on
 * its way fixes it, so the watch asks for one when a row it saw drawn open got no request.
 */
export class DrawWatch<T extends object> {
  /** Open rows drawn, by id, whose children VS Code has not asked for yet. */
  private readonly awaited = new Set<string>();
  /** The person's own opening (true) or closing (false) of a row, by id: it outlives the row's default. */
  private readonly chosen = new Map<string, boolean>();
  private readonly misses = new Map<string, number>();
  private readonly ids = new WeakMap<T, string>();
  private readonly subs: Array<{ dispose(): void }> = [];
  private view: WatchedView<T> | undefined;
  private log: ((message: string) => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly redraw: () => void) {}

  /** Starts watching: only a view VS Code shows can be checked. `log` hears of each redraw asked for. */
  attach(view: WatchedView<T>, log?: (message: string) => void): void {
    this.view = view;
    this.log = log;
    this.subs.push(
      view.onDidExpandElement((e) => this.choose(e.element, true)),
      view.onDidCollapseElement((e) => this.choose(e.element, false)),
    );
  }

  /** A row VS Code asked to draw (not one the provider drew for itself). */
  drawn(node: T, id: string | undefined, shape: RowShape): void {
    if (!this.view || id === undefined) return;
    this.ids.set(node, id);
    if (shape === 'leaf' || !(this.chosen.get(id) ?? shape === 'open')) return;
    this.awaited.add(id);
    this.timer ??= setTimeout(() => this.check(), ASK_WITHIN_MS);
  }

  /** VS Code asked for a row's children. */
  asked(node: T): void {
    const id = this.ids.get(node);
    if (id === undefined) return;
    this.awaited.delete(id);
    this.misses.delete(id);
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const s of this.subs) s.dispose();
  }

  private choose(node: T, open: boolean): void {
    const id = this.ids.get(node);
    if (id === undefined) return;
    this.chosen.set(id, open);
    this.misses.delete(id);
    if (!open) this.awaited.delete(id);
  }

  private check(): void {
    this.timer = undefined;
    const missed = [...this.awaited];
    this.awaited.clear();
    if (missed.length === 0 || !this.view?.visible) return;
    let again = false;
    for (const id of missed) {
      const n = (this.misses.get(id) ?? 0) + 1;
      this.misses.set(id, n);
      if (n < MISSES_BEFORE_CLOSED) again = true;
      else this.chosen.set(id, false);
    }
    if (!again) return;
    this.log?.(`${this.view.title ?? 'a view'}: VS Code drew ${missed.join(', ')} open without asking for the rows under it; drawn again`);
    this.redraw();
  }
}
