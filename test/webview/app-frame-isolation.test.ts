// The double frame measured in headless Chromium, outside VS Code, with the chat page's own CSP (chatPageCsp) and the
// real sandbox proxy (SandboxProxy, PROXY_PAGE): (1) a view framed straight into the chat page cannot run at all;
// (2) through the proxy it runs; (3) a proxy page served without its CSP header lets the view navigate its own frame
// to a loopback URL (the hole docs/mcp-apps.md describes: where the proxy is reached from); (4) the header closes it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, requireChromium } from '../../scripts/chromium.mjs';
import { chatPageCsp } from '../../src/common/chat-page';
import { SandboxProxy } from '../../src/core/apps/sandbox-proxy';
import { PROXY_PAGE } from '../../src/core/apps/proxy-page';
import { appCsp } from '../../src/core/apps/app-csp';
import { withCspMeta } from '../../src/core/apps/app-view';
import { localSite, type LocalSite } from '../fakes/local-site';
import { until } from '../support/until';

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

/** A view that says it ran, then (when told) navigates its frame to `to`. */
const viewHtml = (to: string): string =>
  withCspMeta(
    `<!doctype html><html><head></head><body><script>parent.postMessage({ jsonrpc: '2.0', method: 'test/ran', params: {} }, '*');
window.addEventListener('message', (e) => { if (e.data && e.data.method === 'test/leave') location.href = '${to}'; });</script></body></html>`,
    appCsp(undefined).policy,
  );

describe("the double frame in headless Chromium under the chat page's CSP", () => {
  let context: BrowserContext;
  let userDataDir: string;
  let chatServer: Server;
  let bare: Server;
  let chatOrigin: string;
  let bareOrigin: string;
  let probe: LocalSite;
  const proxy = new SandboxProxy();
  let proxyBase: string;

  before(async () => {
    probe = await localSite('probe');
    proxyBase = await proxy.start();
    // The hole's proxy: the same page, no CSP header.
    bare = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PROXY_PAGE));
    bareOrigin = await listen(bare);
    // The chat page: the shipped CSP, frames allowed from both proxies' origins only (the test needs the two).
    chatServer = createServer((_req, res) => {
      const nonce = randomBytes(16).toString('base64');
      const frameSrc = `${new URL(proxyBase).origin} ${bareOrigin}`;
      const csp = chatPageCsp(nonce, chatOrigin, new URL(proxyBase).origin).replace(/frame-src \S+/, `frame-src ${frameSrc}`);
      res.writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${csp}"></head><body><script nonce="${nonce}">
window.__got = [];
window.addEventListener('message', (e) => window.__got.push(e.data));
</script></body></html>`);
    });
    chatOrigin = await listen(chatServer);
    userDataDir = mkdtempSync(join(tmpdir(), 'mcp-agent-isolation-'));
    context = await chromium.launchPersistentContext(userDataDir, { executablePath: requireChromium(), headless: true, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await context?.close();
    proxy.dispose();
    bare?.close();
    chatServer?.close();
    probe?.server.close();
    rmSync(userDataDir, { recursive: true, force: true });
  });

  async function chatPage(): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${chatOrigin}/`);
    return page;
  }

  /** Frames the proxy at `src` the way app-frames.ts does, hands it the view when it is ready, and waits for the view to run. */
  async function doubleFrame(page: Page, src: string, html: string): Promise<void> {
    await page.evaluate(
      ({ src, html }) => {
        const f = document.createElement('iframe');
        f.setAttribute('sandbox', 'allow-scripts');
        f.src = src;
        window.addEventListener('message', (e) => {
          const m = e.data as { method?: string };
          if (e.source === f.contentWindow && m.method === 'ui/notifications/sandbox-proxy-ready')
            f.contentWindow!.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html } }, '*');
        });
        (window as unknown as { __proxy: HTMLIFrameElement }).__proxy = f;
        document.body.append(f);
      },
      { src, html },
    );
    await page.waitForFunction(() => (window as unknown as { __got: Array<{ method?: string }> }).__got.some((m) => m.method === 'test/ran'));
  }

  const leave = (page: Page): Promise<void> =>
    page.evaluate(() =>
      (window as unknown as { __proxy: HTMLIFrameElement }).__proxy.contentWindow!.postMessage({ jsonrpc: '2.0', method: 'test/leave' }, '*'),
    );

  test('a view framed straight into the chat page (srcdoc) cannot run at all', async () => {
    const page = await chatPage();
    await page.evaluate(
      (html) =>
        new Promise<void>((resolve) => {
          const f = document.createElement('iframe');
          f.setAttribute('sandbox', 'allow-scripts');
          f.onload = () => resolve();
          f.srcdoc = html;
          document.body.append(f);
        }),
      viewHtml(`http://127.0.0.1:${probe.port}/x`),
    );
    // The frame has loaded, so its inline script ran or was refused by now: it was refused (the page's nonce CSP).
    assert.deepEqual(await page.evaluate(() => (window as unknown as { __got: unknown[] }).__got), []);
    await page.close();
  });

  test('without its CSP header the proxy lets the view navigate its frame to a loopback URL (the hole)', async () => {
    const page = await chatPage();
    await doubleFrame(page, `${bareOrigin}/`, viewHtml(`http://127.0.0.1:${probe.port}/hole`));
    await leave(page);
    // The probe being reached is the test's point: a closed hole fails here, naming what the probe did get.
    await until(() => probe.hits.includes('/hole'), {
      what: 'the frame to reach the probe at /hole',
      wake: (check) => (probe.server.on('request', check), () => void probe.server.off('request', check)),
      seen: () => probe.hits,
    });
    await page.close();
  });

  test('with the header (SandboxProxy) the view runs, and navigating its frame goes nowhere', async () => {
    const page = await chatPage();
    const ticket = proxy.ticket(appCsp(undefined).policy);
    const navigated = page.waitForEvent('framenavigated', (f) => f.url().startsWith('chrome-error:') || f.url().includes(`:${probe.port}`));
    await doubleFrame(page, `${proxyBase}${ticket}`, viewHtml(`http://127.0.0.1:${probe.port}/held`));
    await leave(page);
    const frame = await navigated;
    assert.match(frame.url(), /^chrome-error:/, 'the navigation was refused: the frame shows the error page');
    assert.ok(!probe.hits.includes('/held'), probe.hits.join(', '));
    await page.close();
  });
});
