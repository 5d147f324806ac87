import * as vscode from 'vscode';
import type { McpHub } from '../../core/mcp/hub/hub';
import { openImage } from '../chat/open-image';
import { RefreshThrottle } from '../refresh-throttle';
import { resourceView, type ResourceView } from '../../core/mcp/requests/resource-content';
import { messageOf } from '../../node/error-message';

/**
 * Not `mcp-resource`: VS Code's own MCP host (1.139 has it) serves that scheme from a file system provider, which
 * wins over a content provider, so our documents failed to open there ("Unable to resolve nonexistent file").
 */
const RESOURCE_SCHEME = 'mcp-agent-resource';

/**
 * A resource's document URI: `mcp-agent-resource:/<server>/<the resource URI's path>?server=…&uri=…`. The path is
 * only for the tab's title (and the language of a name like notes.md); the query says exactly what to read.
 */
function resourceDocUri(server: string, uri: string): vscode.Uri {
  const readable = uri
    .replace(/^[a-z][a-z0-9+.-]*:\/*/i, '')
    .replace(/[?#].*$/, '')
    .split('/')
    .filter(Boolean)
    .join('/');
  return vscode.Uri.from({ scheme: RESOURCE_SCHEME, path: `/${server}/${readable || 'resource'}`, query: new URLSearchParams({ server, uri }).toString() });
}

function parseDocUri(doc: vscode.Uri): { server: string; uri: string } | undefined {
  if (doc.scheme !== RESOURCE_SCHEME) return undefined;
  const q = new URLSearchParams(doc.query);
  const server = q.get('server');
  const uri = q.get('uri');
  return server !== null && uri !== null ? { server, uri } : undefined;
}

interface Open {
  doc: vscode.Uri;
  server: string;
  uri: string;
  subscribed: boolean;
}

/**
 * MCP resources as read-only documents (a content provider, so closing one never asks to save it). An open
 * one is subscribed to when its server offers subscriptions, and re-read when the server says it changed,
 * at most every quarter second however often it says so; closing its last tab unsubscribes.
 */
export class ResourceDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** The text each open document shows, by document URI. */
  private readonly texts = new Map<string, string>();
  private readonly open = new Map<string, Open>();
  private readonly throttle = new RefreshThrottle<string>((key) => this.refresh(key));
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly hub: McpHub,
    private readonly imagesDir: string,
    private readonly log: vscode.LogOutputChannel,
  ) {
    const offUpdated = hub.on('resourceUpdated', (server, uri) => {
      const key = resourceDocUri(server, uri).toString();
      if (this.open.has(key)) this.throttle.poke(key);
    });
    this.disposables = [
      this.changed,
      { dispose: offUpdated },
      vscode.workspace.registerTextDocumentContentProvider(RESOURCE_SCHEME, this),
      vscode.window.tabGroups.onDidChangeTabs((e) => e.closed.forEach((tab) => this.closedTab(tab, e.closed))),
      vscode.workspace.onDidCloseTextDocument((doc) => this.closedTab(doc.uri)),
    ];
  }

  /** Reads a resource and shows it: an image in an image tab, anything else as a read-only document. */
  async show(server: string, uri: string): Promise<void> {
    const view = resourceView(await this.hub.readResource(server, uri));
    if (view.kind === 'image') {
      await openImage(this.imagesDir, view.mimeType, view.base64);
      return;
    }
    const docUri = resourceDocUri(server, uri);
    const key = docUri.toString();
    this.texts.set(key, view.text);
    // A document VS Code still holds (open, or closed moments ago) shows what was just read.
    this.changed.fire(docUri);
    let doc = await vscode.workspace.openTextDocument(docUri);
    if (view.language && doc.languageId !== view.language) doc = await vscode.languages.setTextDocumentLanguage(doc, view.language);
    await vscode.window.showTextDocument(doc, { preview: true });
    await this.track(docUri, server, uri);
  }

  async provideTextDocumentContent(docUri: vscode.Uri): Promise<string> {
    const key = docUri.toString();
    const known = this.texts.get(key);
    if (known !== undefined) return known;
    const target = parseDocUri(docUri);
    if (!target) return `Not an MCP resource: ${key}`;
    // Opened by URI alone (a reloaded window restoring its tabs): read it now and follow it from here on.
    const text = await this.read(target.server, target.uri);
    this.texts.set(key, text);
    void this.track(docUri, target.server, target.uri);
    return text;
  }

  private async track(doc: vscode.Uri, server: string, uri: string): Promise<void> {
    const key = doc.toString();
    if (this.open.has(key)) return;
    const entry: Open = { doc, server, uri, subscribed: false };
    this.open.set(key, entry);
    try {
      await this.hub.subscribeResource(server, uri);
      entry.subscribed = true;
      // Closed while the subscription was on its way.
      if (this.open.get(key) !== entry) void this.unsubscribe(entry);
    } catch (err) {
      this.log.debug(`not following ${uri} of ${server}: ${messageOf(err)}`);
    }
  }

  private async refresh(key: string): Promise<void> {
    const entry = this.open.get(key);
    if (!entry) return;
    const text = await this.read(entry.server, entry.uri);
    if (this.open.get(key) !== entry || this.texts.get(key) === text) return;
    this.texts.set(key, text);
    this.changed.fire(entry.doc);
  }

  private async read(server: string, uri: string): Promise<string> {
    try {
      return textOf(resourceView(await this.hub.readResource(server, uri)));
    } catch (err) {
      return `Could not read ${uri} from ${server}: ${messageOf(err)}`;
    }
  }

  /** `closing`: the tabs this event closes, never counted as still showing the document. */
  private closedTab(tabOrUri: vscode.Tab | vscode.Uri, closing: readonly vscode.Tab[] = []): void {
    const uri = tabOrUri instanceof vscode.Uri ? tabOrUri : tabOrUri.input instanceof vscode.TabInputText ? tabOrUri.input.uri : undefined;
    if (uri?.scheme !== RESOURCE_SCHEME) return;
    const key = uri.toString();
    const entry = this.open.get(key);
    if (!entry || stillShown(key, closing)) return;
    this.open.delete(key);
    this.texts.delete(key);
    this.throttle.forget(key);
    if (entry.subscribed) void this.unsubscribe(entry);
  }

  private async unsubscribe(entry: Open): Promise<void> {
    await this.hub
      .unsubscribeResource(entry.server, entry.uri)
      .catch((err: unknown) => this.log.debug(`unsubscribing from ${entry.uri} of ${entry.server} failed: ${messageOf(err)}`));
  }

  dispose(): void {
    this.throttle.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

function textOf(view: ResourceView): string {
  return view.kind === 'text' ? view.text : `[${view.mimeType} image: open the resource again to see it]`;
}

function stillShown(key: string, closing: readonly vscode.Tab[]): boolean {
  return vscode.window.tabGroups.all.some((g) =>
    g.tabs.some((t) => !closing.includes(t) && t.input instanceof vscode.TabInputText && t.input.uri.toString() === key),
  );
}
