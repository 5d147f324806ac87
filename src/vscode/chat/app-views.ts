import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { chatPageHtml } from '../../common/chat-page';
import type { McpHub } from '../../core/mcp/hub/hub';
import { untilStarted } from '../../core/mcp/hub/readiness';
import { AppMounts, type AppChat } from '../../core/apps/app-mounts';
import type { DownloadFile } from '../../core/apps/app-downloads';
import type { SamplingHandler } from '../../core/mcp/client/client-handlers';
import { messageOf } from '../../node/error-message';
import { SandboxProxy } from '../../core/apps/sandbox-proxy';
import { webviewMessageSchema, type ChatEvent, type HostMessage, type WebviewMessage } from '../../common/protocol';
import type { ViewConnection } from './chat-views';

type AppMessage = Extract<WebviewMessage, { type: 'appMount' | 'app' | 'appContext' | 'appUnmount' | 'appFullScreen' }>;

/** Links a view may ask to open: the web and mail, never a command:, file: or vscode: link. */
const OPENABLE = /^(https?:|mailto:)/i;

/**
 * MCP App views in VS Code: the sandbox proxy on a loopback listener, reached through `asExternalUri` (in a
 * browser-served VS Code that is a path on the workbench's origin, and the path of the local URL is dropped:
 * it is appended again here), links the person confirms in a modal before they open (one question at a time),
 * one full-screen tab per call, and each page's views wound down when the page goes.
 */
export class AppViews implements vscode.Disposable {
  private readonly proxy = new SandboxProxy();
  private readonly mounts: AppMounts;
  private readonly byPage = new Map<ViewConnection, Set<string>>();
  private origin: Promise<string> | undefined;
  private externalBase: Promise<string> | undefined;
  /** A download's save dialog is open. */
  private saving = false;
  /** A link question is open: any other is refused at once, so a view cannot line modals up. */
  private askingLink = false;
  /** Each call's full-screen tab (while it opens, and once open): asked again, it is shown, never opened twice. */
  private readonly tabs = new Map<string, Promise<vscode.WebviewPanel | undefined>>();
  /** The open chat, as the last page message named it (a view's own full-screen request comes with none). */
  private chat: (() => Promise<AppChat>) | undefined;

  constructor(
    hub: McpHub,
    version: string,
    private readonly log: vscode.LogOutputChannel,
    /** Where dist/webview is (the tab page's script and style); unset: no full-screen tabs (tests of the controller). */
    private readonly extensionUri?: vscode.Uri,
    /** The host's sampling, offered to views through the same card and limits as servers'. */
    sampling?: SamplingHandler,
    /** Resolves once every server config so far is applied (the person's own servers join the hub late). */
    serversApplied: () => Promise<void> = () => Promise.resolve(),
  ) {
    this.mounts = new AppMounts(
      hub,
      this.proxy,
      {
        externalUrl: (local) => this.externalUrl(local),
        openLink: (server, url) => this.openLink(server, url),
        saveFiles: (server, files) => this.saveFiles(server, files),
        fullScreen: (callId) => void (this.chat && this.openTab(callId, this.chat)),
        serverStarted: async (server) => {
          await serversApplied();
          await untilStarted(hub, server);
        },
        log: (line) => log.info(line),
      },
      version,
      sampling,
    );
  }

  /** The origin the chat pages may frame (their CSP's frame-src): the proxy's, as the page reaches it. */
  frameOrigin(): Promise<string> {
    this.origin ??= this.proxy.start().then(async (base) => new URL(await this.externalUrl(base)).origin);
    return this.origin;
  }

  async handle(message: AppMessage, from: ViewConnection, chat: () => Promise<AppChat>): Promise<void> {
    this.chat = chat;
    switch (message.type) {
      case 'appMount': {
        let views = this.byPage.get(from);
        if (!views) this.byPage.set(from, (views = new Set()));
        views.add(message.view);
        return this.mounts.mount(await chat(), message.view, message.callId, message.context, (m) => from.post(m));
      }
      case 'app':
        return this.mounts.receive(message.view, message.message);
      case 'appContext':
        return this.mounts.context(message.view, message.context);
      case 'appUnmount':
        this.byPage.get(from)?.delete(message.view);
        return this.mounts.unmount(message.view);
      case 'appFullScreen':
        return this.openTab(message.callId, chat);
    }
  }

  onEvent(event: ChatEvent): void {
    this.mounts.onEvent(event);
  }

  /** A page went (closed, reloaded): its views are torn down. */
  pageGone(page: ViewConnection): void {
    const views = this.byPage.get(page);
    this.byPage.delete(page);
    for (const v of views ?? []) void this.mounts.unmount(v, 'The chat page closed.');
  }

  /** "Full screen": the call's tab, opened once; asked again (by the person or its view), the open one is shown. */
  private async openTab(callId: string, chat: () => Promise<AppChat>): Promise<void> {
    const open = this.tabs.get(callId);
    if (open) return void (await open)?.reveal();
    const opening = this.createTab(callId, chat);
    this.tabs.set(callId, opening);
    const panel = await opening;
    if (!panel) this.tabs.delete(callId);
    else panel.onDidDispose(() => this.tabs.delete(callId));
  }

  /**
   * The call's view in an editor tab of its own, a second view of the same call (the one under the card stays),
   * with its own bridge and frame, torn down when the tab closes.
   */
  private async createTab(callId: string, chat: () => Promise<AppChat>): Promise<vscode.WebviewPanel | undefined> {
    if (!this.extensionUri) return undefined;
    const call = (await chat()).events.find((e) => e.kind === 'tool_call' && e.callId === callId);
    if (call?.kind !== 'tool_call' || !call.app) return undefined;
    const title = `${call.server} · ${call.tool}`;
    const root = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const panel = vscode.window.createWebviewPanel(
      'mcpAgent.appView',
      title,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { enableScripts: true, localResourceRoots: [root], retainContextWhenHidden: true },
    );
    const page = { kind: 'editor' as const, ready: true, post: (m: HostMessage) => void panel.webview.postMessage(m) };
    const frameSrc = await this.frameOrigin();
    panel.webview.html = chatPageHtml({
      nonce: randomBytes(16).toString('base64'),
      source: panel.webview.cspSource,
      script: panel.webview.asWebviewUri(vscode.Uri.joinPath(root, 'app-tab.js')).toString(),
      style: panel.webview.asWebviewUri(vscode.Uri.joinPath(root, 'app-tab.css')).toString(),
      bodyClass: 'app-tab-page',
      frameSrc,
    });
    const receiving = panel.webview.onDidReceiveMessage((raw: unknown) => {
      const parsed = webviewMessageSchema.safeParse(raw);
      if (!parsed.success) return;
      const m = parsed.data;
      if (m.type === 'ready') page.post({ type: 'appTab', callId, title });
      else if (m.type === 'appMount' || m.type === 'app' || m.type === 'appContext' || m.type === 'appUnmount') void this.handle(m, page, chat);
    });
    panel.onDidDispose(() => {
      receiving.dispose();
      this.pageGone(page);
    });
    return panel;
  }

  private async externalUrl(local: string): Promise<string> {
    const url = new URL(local);
    // One listener for the session: its external address is asked for once, not at each view (a workbench round trip).
    this.externalBase ??= Promise.resolve(vscode.env.asExternalUri(vscode.Uri.parse(`${url.protocol}//${url.host}/`))).then((u) =>
      u.toString(true).replace(/\/$/, ''),
    );
    return `${await this.externalBase}${url.pathname}`;
  }

  private async openLink(server: string, url: string): Promise<boolean> {
    if (!OPENABLE.test(url)) {
      this.log.warn(`the view of ${server} asked to open a link that is not a web or mail address; refused`);
      return false;
    }
    if (this.askingLink) throw new Error('Another link is waiting for the person to answer: a view may ask one at a time.');
    this.askingLink = true;
    const open = 'Open Link';
    try {
      const answer = await vscode.window.showWarningMessage(`The view of MCP server "${server}" asks to open a link.`, { modal: true, detail: url }, open);
      if (answer !== open) return false;
    } finally {
      this.askingLink = false;
    }
    return vscode.env.openExternal(vscode.Uri.parse(url, true));
  }

  /**
   * A view's download: each file where the person picks in the save dialog (in the workspace at first), which is
   * their consent; one download at a time, so a view cannot stack dialogs.
   */
  private async saveFiles(server: string, files: DownloadFile[]): Promise<boolean> {
    if (this.saving) {
      this.log.warn(`the view of ${server} offered a download while another is being saved; refused`);
      return false;
    }
    this.saving = true;
    try {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      for (const file of files) {
        const target = await vscode.window.showSaveDialog({
          title: `Save ${file.name}, offered by the view of MCP server "${server}"`,
          saveLabel: 'Save',
          ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, file.name) } : {}),
        });
        if (!target) return false;
        await vscode.workspace.fs.writeFile(target, file.data);
        this.log.info(`saved ${target.toString(true)} (${file.data.byteLength} bytes), offered by the view of ${server}`);
        void vscode.window.showInformationMessage(`MCP Agent: saved ${vscode.workspace.asRelativePath(target)}`);
      }
      return true;
    } catch (err) {
      void vscode.window.showErrorMessage(`MCP Agent: the file could not be saved: ${messageOf(err)}`);
      return false;
    } finally {
      this.saving = false;
    }
  }

  dispose(): void {
    void this.mounts.unmountAll('VS Code is closing the extension.');
    this.proxy.dispose();
  }
}
