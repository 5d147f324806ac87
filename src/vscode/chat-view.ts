import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { webviewMessageSchema, type HostMessage } from '../shared/protocol';
import type { ChatController } from './chat-controller';

/** The chat webview in the side bar: builds its page and carries messages, validated, both ways. */
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
    const root = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    view.webview.options = { enableScripts: true, localResourceRoots: [root] };
    view.webview.html = this.html(view.webview, root);
    const connection = this.chat.connect((m: HostMessage) => void view.webview.postMessage(m));
    const receiving = view.webview.onDidReceiveMessage((raw: unknown) => {
      const parsed = webviewMessageSchema.safeParse(raw);
      if (!parsed.success) {
        this.log.warn(`ignored an invalid message from the chat view: ${parsed.error.issues[0]?.message ?? 'bad shape'}`);
        return;
      }
      this.chat.handle(parsed.data).catch((err: unknown) => this.log.error(`chat view message failed: ${String(err)}`));
    });
    view.onDidDispose(() => {
      connection.dispose();
      receiving.dispose();
      if (this.view === view) this.view = undefined;
    });
  }

  /** Shows the chat view (opening the side bar container if needed). */
  async reveal(): Promise<void> {
    if (this.view) this.view.show(false);
    else await vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
  }

  private html(webview: vscode.Webview, root: vscode.Uri): string {
    const nonce = randomBytes(16).toString('base64');
    const js = webview.asWebviewUri(vscode.Uri.joinPath(root, 'chat.js'));
    const css = webview.asWebviewUri(vscode.Uri.joinPath(root, 'chat.css'));
    const csp = [
      "default-src 'none'",
      `img-src ${webview.cspSource} data:`,
      `style-src ${webview.cspSource} 'nonce-${nonce}'`,
      `script-src 'nonce-${nonce}'`,
      `font-src ${webview.cspSource}`,
    ].join('; ');
    return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" nonce="${nonce}" href="${css}">
</head><body><div id="root"></div><script nonce="${nonce}" src="${js}"></script></body></html>`;
  }
}
