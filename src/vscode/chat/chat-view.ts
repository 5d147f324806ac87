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

  /** Whether the side bar's chat is on screen (loaded but behind another view counts as not). */
  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  /** Brings the chat view on screen without taking the keyboard from where the person is typing. */
  async showQuietly(): Promise<void> {
    if (this.view) this.view.show(true);
    else await vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
  }

  /** Shows the chat view (opening the side bar container if needed). */
  async reveal(): Promise<void> {
    if (this.view) this.view.show(false);
    else await vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
  }
}
