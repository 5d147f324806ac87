// A real VS Code (code-server's workbench) in headless Chromium, with the extension loaded, for UI tests.
//   const vs = await startVscode({ name: 'chat sends a message', settings: { 'mcpAgent.apiBaseUrl': fake.url } });
//   try { const chat = await vs.openChat(); ... await vs.screenshot('after-send'); } finally { await vs.close(); }
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { startCodeServer, workbenchUrl, type CodeServer } from '../../scripts/code-server.mjs';
import { requireChromium } from '../../scripts/chromium.mjs';
import { logsDir, repoRoot, screenshotsDir, slug } from './artifacts';
import { openBrowser, type BrowserPage } from './browser';
import { openRemoteNetwork, type RemoteNetwork } from './remote-network';

export const EXTENSION_ID = 'mcp-agent.mcp-agent';
const CONTAINER_TITLE = 'MCP Agent';
/** The activity-bar container of the tree views (Tools, Resources, Prompts, Sessions, Chats): the chat has its own. */
const SERVERS_TITLE = 'MCP Servers';

/** The built-in themes' labels in the theme picker (the same on 1.100 and 1.139), by their setting's name on 1.100. */
const THEME_LABELS: Record<string, string> = {
  'Default Light Modern': 'Light Modern',
  'Default Dark Modern': 'Dark Modern',
  'Default High Contrast': 'Dark High Contrast',
  'Default High Contrast Light': 'Light High Contrast',
};

export interface VscodeOptions {
  /** Names the screenshots and logs of this run. */
  name: string;
  /** Folder to open. Unset: a fresh temp folder (removed on close) holding `files`. */
  workspace?: string;
  /** Files to create in the workspace, path relative to it -> content. */
  files?: Record<string, string>;
  /** User settings, merged over `workbench.startupEditor: none`. */
  settings?: Record<string, unknown>;
  /** Environment for code-server and the extension host (ANTHROPIC_BASE_URL, MCP_AGENT_FETCH_ALLOW...). */
  env?: Record<string, string>;
  /**
   * true: workspace trust stays on, so the folder (never trusted before) opens in Restricted Mode, without the startup
   * question (VS Code 1.139's default; 1.100 asked), on both versions alike.
   */
  workspaceTrust?: boolean;
  /** 'dev' (default): the repo as extensionDevelopmentPath. {vsix}: install that package. 'none': no extension. */
  extension?: 'dev' | 'none' | { vsix: string };
  viewport?: { width: number; height: number };
  /**
   * true: the browser is as if on another machine (a remote window): Chromium runs in a network namespace of its own
   * and reaches only code-server, bound to this host's end of a veth pair, never this host's 127.0.0.1. Linux, root
   * only: check remoteNetworkUnavailable() first.
   */
  remoteBrowser?: boolean;
}

export interface TreeItem {
  label: string;
  description: string;
  /** 1 for top-level rows. */
  level: number;
  expanded: boolean | undefined;
}

export class Vscode {
  constructor(
    readonly page: Page,
    readonly server: CodeServer,
    readonly workspace: string,
    readonly url: string,
    private readonly browser: BrowserPage,
    private name: string,
    private readonly cleanup: () => void,
    /** The browser's network, when started with `remoteBrowser`. */
    readonly remote?: RemoteNetwork,
  ) {}

  /** The MCP Agent icon in the activity bar. */
  activityIcon(): Locator {
    return this.page.locator('.part.activitybar').getByRole('tab', { name: CONTAINER_TITLE });
  }

  /** The activity-bar icon of the tree views' container. */
  serversIcon(): Locator {
    return this.page.locator('.part.activitybar').getByRole('tab', { name: SERVERS_TITLE });
  }

  /** Shows the tree views' side bar (the chat's is then hidden), without toggling it closed. */
  async showServers(): Promise<void> {
    const icon = this.serversIcon();
    if ((await icon.getAttribute('aria-selected')) !== 'true') await icon.click();
    await this.page.locator('.part.sidebar .pane-header .title', { hasText: /^Tools$/i }).waitFor();
  }

  /** Waits for the workbench and the extension's activity-bar icon. */
  async ready(): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await this.activityIcon().waitFor({ timeout: 60_000 });
  }

  /** Shows the MCP Agent side bar (without toggling it closed if it is already open) and returns the chat frame. */
  async openChat(): Promise<FrameLocator> {
    const icon = this.activityIcon();
    const ready = this.page.locator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"]`).first();
    // Right after a reload the workbench may still be restoring the side bar: a click read as "not shown" can land
    // after the restore and toggle it closed again. Look again, and click again, until the chat's frame is there.
    for (let attempt = 1; ; attempt++) {
      const shown = (await icon.getAttribute('aria-selected')) === 'true' && (await this.page.locator('.part.sidebar').isVisible());
      if (!shown) await icon.click();
      try {
        await ready.waitFor({ timeout: attempt === 4 ? 30_000 : 15_000 });
        break;
      } catch (err) {
        if (attempt === 4) throw err;
      }
    }
    const frame = this.chatFrame();
    await frame.locator('body').waitFor();
    return frame;
  }

  /** The chat webview's content document (two iframes deep). */
  chatFrame(): FrameLocator {
    return this.page.frameLocator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"]`).first().frameLocator('#active-frame');
  }

  /** Names the screenshots taken from now on (a describe block sharing the window with others names its own). */
  nameScreenshots(name: string): void {
    this.name = name;
  }

  /**
   * Picks a colour theme (by its setting's name) in Preferences: Color Theme, as a person would, and waits until the
   * chat's webview (shown first) is drawn in it: VS Code swaps the theme in place, so one window serves every theme.
   */
  async colorTheme(id: string): Promise<void> {
    const label = THEME_LABELS[id];
    if (!label) throw new Error(`no picker label known for the theme ${id}`);
    const chat = await this.openChat();
    // By the label the picker shows: 1.139 renamed the Modern themes' ids ("Default Light Modern" is "Light Modern").
    const themed = chat.locator(`body[data-vscode-theme-name="${label}"]`);
    if (await themed.count()) return;
    await this.runCommand('Preferences: Color Theme');
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    await input.fill(label);
    const row = this.page
      .locator('.quick-input-widget .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }) });
    await row.first().click();
    await input.waitFor({ state: 'hidden' });
    await themed.waitFor({ timeout: 60_000 });
  }

  /** Starts a new, empty chat (the side bar shown) and returns its frame once the old messages are gone. */
  async newChat(): Promise<FrameLocator> {
    const chat = await this.openChat();
    await this.runCommand('MCP Agent: New Chat');
    await chat.locator('.msg').first().waitFor({ state: 'detached' });
    return chat;
  }

  /** Saves a full-window PNG under .test-artifacts/screenshots/ and returns its path. */
  async screenshot(name: string): Promise<string> {
    const file = join(screenshotsDir(), `${slug(this.name)}--${slug(name)}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  /**
   * Runs `label` from the context menu of `target`: right-click, highlight the item, Enter. VS Code's context menu
   * acts on Enter for the highlighted item; a synthetic click can land before the menu is armed and be lost (a CI
   * run's Sign Out of Server click did nothing while the menu faded in). `shown` runs while the menu is open.
   */
  async runContextMenuItem(target: Locator, label: string, shown?: () => Promise<void>): Promise<void> {
    await target.click({ button: 'right' });
    const item = this.page.locator('.context-view .action-item', { hasText: label });
    await item.hover();
    await shown?.();
    await this.page.keyboard.press('Enter');
    await item.waitFor({ state: 'hidden' });
  }

  /** Runs a command by its palette title, e.g. 'MCP Agent: New Chat'. */
  async runCommand(title: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    const row = this.page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
    // Right after a reload the palette can open before the extension's commands are registered with it, and
    // it does not refresh its list while open: close it and ask again. It also closes by itself when a webview
    // that had the focus takes it back as the palette opens (a CI run saw the input go hidden before the fill).
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press('F1');
      await input.waitFor();
      try {
        await input.fill(`>${title}`, { timeout: 10_000 });
        await row.waitFor({ timeout: 10_000 });
        break;
      } catch (err) {
        if (attempt === 3) throw err;
        if (await input.isVisible()) await this.page.keyboard.press('Escape');
        await input.waitFor({ state: 'hidden' });
      }
    }
    await row.click();
    // The palette closes, or the command opens a quick pick of its own in the same widget (a new placeholder, no ">").
    await this.page.waitForFunction(() => {
      const box = document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input');
      return !box || box.offsetParent === null || !box.value.startsWith('>');
    });
  }

  /** The side-bar section (view pane) with this title, e.g. 'Tools' (on screen only while its container is shown). */
  view(viewName: string): Locator {
    const title = this.page.locator('.pane-header .title', { hasText: new RegExp(`^${escapeRegExp(viewName)}$`, 'i') });
    return this.page.locator('.part.sidebar .pane').filter({ has: title });
  }

  /** Titles of the sections in the side bar, in order. */
  async viewTitles(): Promise<string[]> {
    return this.page.locator('.part.sidebar .pane-header .title').allInnerTexts();
  }

  /** Expands a section if it is collapsed, showing the tree views' side bar first if it is not. */
  async expandView(viewName: string): Promise<Locator> {
    const pane = this.view(viewName);
    if ((await pane.count()) === 0) await this.showServers();
    const header = pane.locator('.pane-header');
    if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
    await pane.locator('.pane-body').waitFor();
    return pane;
  }

  /** Folds a section (of the side bar on screen) if it is open, to give the others room. */
  async collapseView(viewName: string): Promise<void> {
    const header = this.view(viewName).locator('.pane-header');
    if ((await header.count()) && (await header.getAttribute('aria-expanded')) === 'true') await header.click();
  }

  /** The rows a tree view shows right now (expanding its section first). */
  async treeItems(viewName: string): Promise<TreeItem[]> {
    const pane = await this.expandView(viewName);
    const rows = pane.locator('.monaco-list-row');
    const items: TreeItem[] = [];
    for (const row of await rows.all()) {
      const label = (
        await row
          .locator('.label-name')
          .first()
          .innerText()
          .catch(() => '')
      ).trim();
      const description = (
        await row
          .locator('.label-description')
          .first()
          .innerText()
          .catch(() => '')
      ).trim();
      const level = Number(await row.getAttribute('aria-level')) || 1;
      const exp = await row.getAttribute('aria-expanded');
      items.push({ label, description, level, expanded: exp === null ? undefined : exp === 'true' });
    }
    return items;
  }

  /** Waits until a tree view shows a row containing `text`, and returns that row. */
  async waitForTreeItem(viewName: string, text: string | RegExp, timeout = 30_000): Promise<Locator> {
    const pane = await this.expandView(viewName);
    const row = pane.locator('.monaco-list-row', { hasText: text }).first();
    try {
      await row.waitFor({ timeout });
    } catch (err) {
      // What the view showed instead says whether the row's text differed or the row was never drawn.
      const rows = await this.treeItems(viewName).catch((e: unknown) => `unreadable: ${String(e)}`);
      const shot = await this.screenshot(`no-row-in-${viewName.toLowerCase()}`).catch(() => 'none');
      throw new Error(`${viewName} never showed a row matching ${String(text)}; its rows: ${JSON.stringify(rows)}; screenshot: ${shot}`, { cause: err });
    }
    return row;
  }

  /** Waits until the window says it is in Restricted Mode (started with `workspaceTrust: true`). */
  async restrictedMode(): Promise<void> {
    await this.page.locator('.part.statusbar .statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 60_000 });
  }

  /** Reloads the window (the extension host restarts) and waits for the icon again. */
  async reload(): Promise<void> {
    await this.page.reload();
    await this.ready();
  }

  /** Closes Chromium, stops code-server (whole process group) and keeps its logs under .test-artifacts/logs/. */
  async close(): Promise<void> {
    await this.browser.close();
    await this.server.stop();
    this.cleanup();
  }
}

/** An MCP App view's own document: in the page's `index`th view box, the sandbox proxy's frame, then the view's inside it. */
export function appViewFrame(page: FrameLocator, index = 0): FrameLocator {
  return page.locator('.app-view iframe').nth(index).contentFrame().locator('iframe').contentFrame();
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Starts code-server and Chromium and opens the workspace with the extension loaded. */
export async function startVscode(opts: VscodeOptions): Promise<Vscode> {
  requireChromium(); // before code-server starts: a missing browser fails in a second, naming the fix
  const root = repoRoot();
  const runDir = mkdtempSync(join(tmpdir(), 'mcp-agent-ui-'));
  const workspace = opts.workspace ?? join(runDir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  for (const [rel, content] of Object.entries(opts.files ?? {})) {
    mkdirSync(dirname(join(workspace, rel)), { recursive: true });
    writeFileSync(join(workspace, rel), content);
  }
  const logs = logsDir();
  const base = slug(opts.name);
  const extension = opts.extension ?? 'dev';
  const remote = opts.remoteBrowser ? openRemoteNetwork() : undefined;
  let server: CodeServer;
  try {
    server = await startCodeServer({
      root: join(runDir, 'vscode'),
      host: remote?.hostAddress,
      logFile: join(logs, `${base}--code-server.log`),
      settings: opts.workspaceTrust ? { 'security.workspace.trust.startupPrompt': 'never', ...opts.settings } : opts.settings,
      env: opts.env,
      workspaceTrust: opts.workspaceTrust,
      devPayload: extension === 'dev',
      installExtensions: typeof extension === 'object' ? [extension.vsix] : [],
    });
  } catch (err) {
    remote?.close();
    rmSync(runDir, { recursive: true, force: true });
    throw err;
  }
  const cleanup = () => {
    // The extension host and window logs explain most failures; keep them next to the screenshots.
    const vscodeLogs = join(server.userDataDir, 'logs');
    const kept = join(logs, `${base}--vscode-logs`);
    rmSync(kept, { recursive: true, force: true });
    if (existsSync(vscodeLogs)) cpSync(vscodeLogs, kept, { recursive: true });
    rmSync(runDir, { recursive: true, force: true });
    remote?.close();
  };
  let browser: BrowserPage | undefined;
  try {
    browser = await openBrowser({
      consoleLog: join(logs, `${base}--console.log`),
      viewport: opts.viewport,
      ...(remote && {
        executablePath: remote.chromium,
        // Webviews need service workers, which need a secure context; a person on another machine reaches code-server
        // over https (or through a tunnel to localhost). This plain-http origin stands in for that.
        args: [`--unsafely-treat-insecure-origin-as-secure=${server.url}`],
      }),
    });
    const url = workbenchUrl(server.url, workspace, extension === 'dev' ? { extensionDevelopmentPath: root } : {});
    await browser.page.goto(url);
    const vs = new Vscode(browser.page, server, workspace, url, browser, opts.name, cleanup, remote);
    if (extension === 'none') await browser.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    else await vs.ready();
    return vs;
  } catch (err) {
    const shot = join(screenshotsDir(), `${base}--startup-failure.png`);
    await browser?.page.screenshot({ path: shot }).catch(() => undefined);
    await browser?.close();
    await server.stop();
    cleanup();
    throw err;
  }
}
