import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { webviewMessageSchema, type HostMessage } from '../../common/protocol';
import { chatPageHtml } from '../../common/chat-page';
import type { ChatController } from './chat-controller';
import type { ViewKind } from './chat-views';

/** Fills a webview (the side-bar view or an editor tab) with the chat page and carries messages, validated, both ways. */
export function showChatIn(
  webview: vscode.Webview,
  kind: ViewKind,
  extensionUri: vscode.Uri,
  chat: ChatController,
  log: vscode.LogOutputChannel,
): vscode.Disposable {
  const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  webview.options = { enableScripts: true, localResourceRoots: [root] };
  const connection = chat.connect(kind, (m: HostMessage) => void webview.postMessage(m));
  // The page may frame the MCP App sandbox proxy's origin and nothing else; without a proxy, no frames at all.
  void chat.apps
    .frameOrigin()
    .catch((err: unknown) => {
      log.warn(`MCP App views are off: the sandbox proxy did not start (${String(err)})`);
      return undefined;
    })
    .then((frameSrc) => (webview.html = chatHtml(webview, root, kind, frameSrc)));
  const receiving = webview.onDidReceiveMessage((raw: unknown) => {
    const parsed = webviewMessageSchema.safeParse(raw);
    if (!parsed.success) {
      log.warn(`ignored an invalid message from the chat ${kind === 'editor' ? 'tab' : 'view'}: ${parsed.error.issues[0]?.message ?? 'bad shape'}`);
      return;
    }
    chat.handle(parsed.data, connection).catch((err: unknown) => log.error(`chat message failed: ${String(err)}`));
  });
  return vscode.Disposable.from(connection, receiving, { dispose: () => chat.apps.pageGone(connection) });
}

function chatHtml(webview: vscode.Webview, root: vscode.Uri, kind: ViewKind, frameSrc: string | undefined): string {
  return chatPageHtml({
    nonce: randomBytes(16).toString('base64'),
    source: webview.cspSource,
    script: webview.asWebviewUri(vscode.Uri.joinPath(root, 'chat.js')).toString(),
    style: webview.asWebviewUri(vscode.Uri.joinPath(root, 'chat.css')).toString(),
    bodyClass: `chat-${kind}`,
    ...(frameSrc ? { frameSrc } : {}),
  });
}
