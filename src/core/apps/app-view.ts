import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { appCsp, type AppCsp } from './app-csp';
import { isAppView } from '../mcp/requests/app-visibility';

/** A view's HTML, ready for the sandbox (its CSP in a <meta> too), and how its resource asks to be drawn. */
export interface AppView {
  uri: string;
  html: string;
  csp: AppCsp;
  /** The resource's wish for a border and background (absent: the host decides). */
  prefersBorder?: boolean;
}

/** The largest view taken (server-pdf's viewer is 4 MB of inlined script). */
const MAX_VIEW_BYTES = 16 * 1024 * 1024;

/**
 * Reads a tool's view as SEP-1865 says (`resources/read` of its `ui://` URI) and checks it is one: HTML of
 * the MIME type `text/html;profile=mcp-app`, as text or base64, within MAX_VIEW_BYTES. Throws, saying why.
 */
export async function readAppView(read: (uri: string) => Promise<ReadResourceResult>, uri: string): Promise<AppView> {
  const result = await read(uri);
  const item = result.contents.find((c) => c.uri === uri) ?? result.contents[0];
  if (!item) throw new Error(`${uri} came back empty`);
  if (!isAppView({ uri, mimeType: item.mimeType }) || !/^text\/html/i.test(item.mimeType ?? '')) {
    throw new Error(`${uri} is ${item.mimeType ?? 'of no type'}, not an app's view (text/html;profile=mcp-app)`);
  }
  const html =
    'text' in item && typeof item.text === 'string'
      ? item.text
      : 'blob' in item && typeof item.blob === 'string'
        ? Buffer.from(item.blob, 'base64').toString('utf8')
        : undefined;
  if (html === undefined) throw new Error(`${uri} has neither text nor blob`);
  if (Buffer.byteLength(html) > MAX_VIEW_BYTES) throw new Error(`${uri} is larger than ${MAX_VIEW_BYTES / 1024 / 1024} MB`);
  const ui = (item._meta?.ui ?? {}) as { csp?: Record<string, unknown>; prefersBorder?: unknown };
  const csp = appCsp(ui.csp);
  return { uri, html: withCspMeta(html, csp.policy), csp, ...(typeof ui.prefersBorder === 'boolean' ? { prefersBorder: ui.prefersBorder } : {}) };
}

/** The policy as the first thing in the document's head, so nothing in it runs before the policy applies. */
export function withCspMeta(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/"/g, '&quot;')}">`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + meta + html.slice(head.index + head[0].length);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  const at = doctype ? doctype[0].length : 0;
  return `${html.slice(0, at)}<head>${meta}</head>${html.slice(at)}`;
}

/**
 * Views read before, per server and URI (SEP-1865 lets a host cache them): an app drawn again, in the other
 * chat page or a reopened chat, does not read its 100 KB to 4 MB again. A server that restarts may serve
 * another view: its entries go (forget()). A new call reads its view afresh (refresh()), so a view the server
 * changed is the one its next call draws.
 */
export class AppViewCache {
  private readonly views = new Map<string, Promise<AppView>>();

  get(server: string, uri: string, read: () => Promise<AppView>): Promise<AppView> {
    return this.views.get(keyOf(server, uri)) ?? this.start(server, uri, read);
  }

  /** Reads the view now, in place of what is kept (a read under way included): what get() gives from now on. */
  refresh(server: string, uri: string, read: () => Promise<AppView>): void {
    void this.start(server, uri, read);
  }

  forget(server: string): void {
    for (const key of this.views.keys()) if (key.startsWith(`${server}\n`)) this.views.delete(key);
  }

  private start(server: string, uri: string, read: () => Promise<AppView>): Promise<AppView> {
    const key = keyOf(server, uri);
    const view = read();
    this.views.set(key, view);
    // A failure is not kept: the next draw asks again (and says why, if it fails again).
    view.catch(() => this.views.get(key) === view && this.views.delete(key));
    return view;
  }
}

function keyOf(server: string, uri: string): string {
  return `${server}\n${uri}`;
}
