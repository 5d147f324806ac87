import * as vscode from 'vscode';
import type { ChatController } from './chat-controller';
import { showChatIn } from './chat-webview';

/** The chat webview in the side bar. */
export class ChatViewProvider implements vscode.WebviewViewProvider {
  static readonly viewId = 'mcpAgent.chat';
  private view: vscode.WebviewView | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly chat: ChatController,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const wiring = showChatIn(view.webview, 'sidebar', this.extensionUri, this.chat, this.log);
    view.onDidDispose(() => {
      wiring.dispose();
      if (this.view === view) this.view = undefined;
    });
  }

  /** Shows the chat view (opening the side bar container if needed). */
  async reveal(): Promise<void> {
    if (this.view) this.view.show(false);
    else await vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
  }
}
