// Debian's Chromium driven by playwright-core (never `playwright install`: it downloads).
import { appendFileSync, writeFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, requireChromium } from '../../scripts/chromium.mjs';

export interface BrowserPage {
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

export interface BrowserOptions {
  consoleLog: string;
  viewport?: { width: number; height: number };
  /** Instead of Chromium itself, a wrapper that runs it (e.g. in another network namespace). */
  executablePath?: string;
  /** Flags added to CHROMIUM_ARGS. */
  args?: string[];
}

/**
 * A fresh headless Chromium (playwright gives each launch a new profile) with one page whose console
 * errors, page errors and failed requests go to `consoleLog`.
 */
export async function openBrowser(opts: BrowserOptions): Promise<BrowserPage> {
  const browser = await chromium.launch({
    executablePath: opts.executablePath ?? requireChromium(),
    headless: true,
    args: [...CHROMIUM_ARGS, ...(opts.args ?? [])],
  });
  let page: Page;
  try {
    // The clipboard as a person has it: Copy in the chat writes it, a test reads it back.
    const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1400, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    page = await context.newPage();
  } catch (err) {
    await browser.close().catch(() => undefined);
    throw err;
  }
  // Every wait is for an event on the page; this only bounds how long one may take. Generous, so a machine
  // twice as slow (CI on 2 loaded cores runs code-server, Chromium and the servers at once) still passes.
  page.setDefaultTimeout(60_000);
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
