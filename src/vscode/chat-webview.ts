import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { webviewMessageSchema, type HostMessage } from '../shared/protocol';
import type { ChatController } from './chat-controller';
import type { ViewKind } from './chat-views';

/** Fills a webview (the side-bar view or an editor tab) with the chat page and carries messages, validated, both ways. */
export function showChatIn(webview: vscode.Webview, kind: ViewKind, extensionUri: vscode.Uri, chat: ChatController, log: vscode.LogOutputChannel): vscode.Disposable {
  const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  webview.options = { enableScripts: true, localResourceRoots: [root] };
  webview.html = chatHtml(webview, root, kind);
  const connection = chat.connect(kind, (m: HostMessage) => void webview.postMessage(m));
  const receiving = webview.onDidReceiveMessage((raw: unknown) => {
    const parsed = webviewMessageSchema.safeParse(raw);
    if (!parsed.success) {
      log.warn(`ignored an invalid message from the chat ${kind === 'editor' ? 'tab' : 'view'}: ${parsed.error.issues[0]?.message ?? 'bad shape'}`);
      return;
    }
    chat.handle(parsed.data, connection).catch((err: unknown) => log.error(`chat message failed: ${String(err)}`));
  });
  return vscode.Disposable.from(connection, receiving);
}

function chatHtml(webview: vscode.Webview, root: vscode.Uri, kind: ViewKind): string {
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
</head><body class="chat-${kind}"><div id="root"></div><script nonce="${nonce}" src="${js}"></script></body></html>`;
}
