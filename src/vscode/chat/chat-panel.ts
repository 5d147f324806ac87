import * as vscode from 'vscode';
import type { ChatController } from './chat-controller';
import { showChatIn } from './chat-webview';

/**
 * The chat in an editor tab, for room to read wide code and tables. It shows the same chat as
 * the side bar (both follow it live); one tab at a time, brought forward when asked again.
 */
export class ChatPanel implements vscode.Disposable {
  static readonly viewType = 'mcpAgent.chatEditor';
  private panel: vscode.WebviewPanel | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly chat: ChatController,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Whether the chat's editor tab is on screen. */
  get visible(): boolean {
    return this.panel?.visible ?? false;
  }

  open(): void {
    if (this.panel) {
      this.panel.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      ChatPanel.viewType,
      'MCP Agent Chat',
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { retainContextWhenHidden: true },
    );
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.svg');
    const wiring = showChatIn(panel.webview, 'editor', this.extensionUri, this.chat, this.log);
    panel.onDidDispose(() => {
      wiring.dispose();
      if (this.panel === panel) this.panel = undefined;
    });
    this.panel = panel;
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
