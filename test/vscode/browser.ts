// Debian's Chromium driven by playwright-core (never `playwright install`: it downloads).
import { appendFileSync, writeFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.MCP_AGENT_CHROMIUM ?? '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserPage {
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

/**
 * A fresh headless Chromium (playwright gives each launch a new profile) with one page whose console
 * errors, page errors and failed requests go to `consoleLog`.
 */
export async function openBrowser(opts: { consoleLog: string; viewport?: { width: number; height: number } }): Promise<BrowserPage> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1400, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  writeFileSync(opts.consoleLog, '');
  const note = (line: string) => appendFileSync(opts.consoleLog, `${new Date().toISOString()} ${line}\n`);
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') note(`[console.${msg.type()}] ${msg.text()}`);
  });
  page.on('pageerror', (err) => note(`[pageerror] ${err.stack ?? err.message}`));
  page.on('requestfailed', (req) => note(`[requestfailed] ${req.url()} ${req.failure()?.errorText ?? ''}`));
  let closed: Promise<void> | undefined;
  return {
    browser,
    page,
    close: () => (closed ??= browser.close().catch(() => undefined)),
  };
}
