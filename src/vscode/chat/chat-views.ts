import * as vscode from 'vscode';
import type { HostMessage } from '../../common/protocol';

/** Where a chat page is shown: the side bar's view, or an editor tab (wide). */
export type ViewKind = 'sidebar' | 'editor';

/** One chat page. It gets nothing until it said `ready` and was given the conversation. */
export interface ViewConnection {
  readonly kind: ViewKind;
  ready: boolean;
  post(message: HostMessage): void;
}

/**
 * The chat pages showing the open chat: everything the chat does goes to each of them; what
 * addresses the composer (an attached file, focus) goes to one, the side bar's when it is there,
 * and waits until a page is ready rather than being lost.
 */
export class ChatViews implements vscode.Disposable {
  private readonly connections = new Set<ViewConnection>();
  private readonly queued: HostMessage[] = [];
  private readonly readyEmitter = new vscode.EventEmitter<void>();
  /** Fires each time a chat page has loaded and been given the conversation. */
  readonly onDidBecomeReady = this.readyEmitter.event;

  connect(kind: ViewKind, post: (m: HostMessage) => void): ViewConnection & vscode.Disposable {
    const connection = { kind, ready: false, post, dispose: () => void this.connections.delete(connection) };
    this.connections.add(connection);
    return connection;
  }

  /** A page said `ready` and was sent the conversation: it now gets everything, and what waited. */
  markReady(connection: ViewConnection): void {
    connection.ready = true;
    const target = this.composerTarget();
    if (target) for (const m of this.queued.splice(0)) target.post(m);
    this.readyEmitter.fire();
  }

  get anyReady(): boolean {
    return [...this.connections].some((c) => c.ready);
  }

  broadcast(message: HostMessage): void {
    for (const c of this.connections) if (c.ready) c.post(message);
  }

  /** To the one composer the person is using (the side bar's first), or kept until one is ready. */
  toComposer(message: HostMessage): void {
    const target = this.composerTarget();
    if (target) target.post(message);
    else this.queued.push(message);
  }

  private composerTarget(): ViewConnection | undefined {
    const ready = [...this.connections].filter((c) => c.ready);
    return ready.find((c) => c.kind === 'sidebar') ?? ready[0];
  }

  dispose(): void {
    this.readyEmitter.dispose();
    this.connections.clear();
  }
}
