/**
 * Runs the built chat webview (dist/webview/chat.{js,css}) in headless Chromium, on a page shaped
 * like the one src/vscode/chat/chat-view.ts makes: same CSP (with a nonce), a stub acquireVsCodeApi that
 * records what the chat posts, and VS Code theme variables. Tests talk to it through ChatPage.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, requireChromium } from '../../scripts/chromium.mjs';
import type { HostMessage, WebviewMessage } from '../../src/common/protocol';
import { chatPageHtml } from '../../src/common/chat-page';
import { scaled } from '../support/until';
import type { Outgoing, RequestMethod, RequestParams, RequestResult } from '../../src/common/requests';
import { bodyClass, isTheme, themeCss, VSCODE_DEFAULT_CSS, type Theme } from './webview-themes';
export { repoRoot } from '../support/repo-root';
import { repoRoot } from '../support/repo-root';

export interface OpenOptions {
  theme?: Theme;
  /** false drops the CSP, to prove the sanitiser alone keeps hostile markdown inert. */
  csp?: boolean;
  width?: number;
  height?: number;
  /** The MCP App sandbox proxy's origin the page may frame (chatPageHtml's frameSrc); none by default. */
  frameSrc?: string;
}

export interface ChatPage {
  page: Page;
  /** Deliver a host -> webview message (unvalidated on purpose: tests send bad ones too). */
  post(message: HostMessage | unknown): Promise<void>;
  posted(): Promise<WebviewMessage[]>;
  /** Answers the newest `method` request whose params pass `match` (waiting for one) with `result`; gives its params. */
  answerRequest<M extends RequestMethod>(method: M, result: RequestResult<M>, match?: (params: RequestParams<M>) => boolean): Promise<RequestParams<M>>;
  waitForPosted(type: WebviewMessage['type'], count?: number): Promise<WebviewMessage[]>;
  /** The person's messages the page asked the host to send (`send` requests), oldest first, once there are `count`. */
  waitForSent(count?: number): Promise<Array<{ id: number; message: Outgoing }>>;
  stats(): Promise<{ deltas: number; markdownRenders: number; frames: number }>;
  /** What the page's CSP refused so far (a clean chat triggers none). */
  cspViolations(): Promise<string[]>;
}

export interface Harness {
  open(options?: OpenOptions): Promise<ChatPage>;
  close(): Promise<void>;
}

/** The chat page as the extension serves it (shared/chat-page.ts), with VS Code's API and theme stood in. */
function harnessHtml(origin: string, theme: Theme, csp: boolean, frameSrc: string | undefined): string {
  const nonce = randomBytes(16).toString('base64');
  const head = `<style nonce="${nonce}">${VSCODE_DEFAULT_CSS}\n${themeCss(theme)}</style>
<script nonce="${nonce}">
  window.__posted = [];
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
  window.__state = undefined;
  let acquired = false;
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error('acquireVsCodeApi called twice');
    acquired = true;
    return {
      postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
      getState: () => window.__state,
      setState: (s) => { window.__state = s; },
    };
  };
</script>`;
  return chatPageHtml({
    nonce,
    source: origin,
    script: `${origin}/chat.js`,
    style: `${origin}/chat.css`,
    bodyClass: bodyClass(theme),
    head,
    noCsp: !csp,
    frameSrc,
  });
}

export async function startHarness(): Promise<Harness> {
  // Before anything is opened: a missing browser fails the test at once, naming the fix.
  const executablePath = requireChromium();
  const dist = join(repoRoot(), 'dist', 'webview');
  const files: Record<string, string> = { '/chat.js': 'text/javascript', '/chat.css': 'text/css' };
  for (const f of Object.keys(files)) {
    if (!existsSync(join(dist, f))) throw new Error(`dist/webview${f} missing: run node esbuild.mjs first`);
  }
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const type = files[url.pathname];
    if (type) {
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(readFileSync(join(dist, url.pathname)));
    } else if (url.pathname === '/chat.html') {
      const asked = url.searchParams.get('theme');
      const theme = isTheme(asked) ? asked : 'light';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(harnessHtml(origin, theme, url.searchParams.get('csp') !== '0', url.searchParams.get('frameSrc') ?? undefined));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const userDataDir = mkdtempSync(join(tmpdir(), 'mcp-agent-webview-'));
  const closeServer = (): Promise<void> => new Promise<void>((resolve) => server.close(() => resolve()));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 400, height: 700 },
    });
    // Playwright's own 30 s bound on each wait, scaled like every other limit: a loaded machine is slow, not wrong.
    context.setDefaultTimeout(scaled(30_000));
    // Nothing may leave the machine even if a test (or the chat) gets it wrong.
    await context.route(/^(?!http:\/\/127\.0\.0\.1)/, (route) => route.abort());
  } catch (err) {
    // An open server would keep the test process alive forever after the failure.
    await closeServer();
    rmSync(userDataDir, { recursive: true, force: true });
    throw err;
  }

  return {
    async open(options: OpenOptions = {}): Promise<ChatPage> {
      const page = await context.newPage();
      await page.setViewportSize({ width: options.width ?? 400, height: options.height ?? 700 });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      const query = new URLSearchParams({ theme: options.theme ?? 'light', csp: options.csp === false ? '0' : '1' });
      if (options.frameSrc) query.set('frameSrc', options.frameSrc);
      await page.goto(`${origin}/chat.html?${query.toString()}`);
      await page.waitForFunction(() => (window as unknown as { __posted: unknown[] }).__posted.length > 0);
      if (errors.length) throw new Error(`page errors: ${errors.join('\n')}`);
      const chat: ChatPage = {
        page,
        post: (message) => page.evaluate((m) => window.postMessage(m, '*'), message as object),
        posted: () => page.evaluate(() => (window as unknown as { __posted: WebviewMessage[] }).__posted),
        async waitForPosted(type, count = 1) {
          await page.waitForFunction(([t, n]) => (window as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === t).length >= n, [
            type,
            count,
          ] as const);
          return (await chat.posted()).filter((m) => m.type === type);
        },
        async waitForSent(count = 1) {
          await page.waitForFunction(
            (n) =>
              (window as unknown as { __posted: { type: string; method?: string }[] }).__posted.filter((m) => m.type === 'request' && m.method === 'send')
                .length >= n,
            count,
          );
          return (await chat.posted()).flatMap((m) => (m.type === 'request' && m.method === 'send' ? [{ id: m.id, message: m.params as Outgoing }] : []));
        },
        async answerRequest(method, result, match = () => true) {
          type Asked = Extract<WebviewMessage, { type: 'request' }>;
          const find = async (): Promise<Asked | undefined> =>
            (await chat.posted()).filter((m): m is Asked => m.type === 'request' && m.method === method && match(m.params as never)).at(-1);
          let asked = await find();
          while (!asked) {
            await page.waitForFunction((n) => (window as unknown as { __posted: unknown[] }).__posted.length > n, (await chat.posted()).length);
            asked = await find();
          }
          await chat.post({ type: 'response', id: asked.id, result } satisfies HostMessage);
          return asked.params as never;
        },
        cspViolations: () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations),
        stats: () =>
          page.evaluate(() => ({ ...(window as unknown as { __mcpAgentChat: { deltas: number; markdownRenders: number; frames: number } }).__mcpAgentChat })),
      };
      return chat;
    },
    async close() {
      await context.close().catch(() => undefined);
      await closeServer();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
