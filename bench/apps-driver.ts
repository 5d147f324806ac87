// Bundled by bench/sections/apps.mjs: MCP App views in the real VS Code (code-server + Chromium through the test
// harness), against the npm app servers and the fake Messages API. Measures (1) from a tool's result reaching the
// chat page to the view showing it (server-basic-vanillajs: its #server-time holds the time; watched every frame
// in the view's own document, both ends on the same clock), and (2) the chat page's frame times while it scrolls
// with three live views (basic, system-monitor polling every second, budget-allocator), against the same scroll
// with the views' frames swapped for empty boxes of the same height.
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../test/fakes/anthropic-api';
import { appViewFrame, startVscode } from '../test/vscode/harness';
import { repoRoot } from '../test/support/repo-root';

const pkg = (name: string): string => join(repoRoot(), 'node_modules', '@modelcontextprotocol', name, 'dist', 'index.js');
const stdio = (name: string) => ({ type: 'stdio', command: process.execPath, args: [pkg(name), '--stdio'], env: { ELECTRON_RUN_AS_NODE: '1' } });

function model(body: MessagesBody): Reply {
  const last = lastUserText(body);
  if (isToolResultTurn(body)) return { text: 'Shown.' };
  if (/system/.test(last)) return { toolUses: [{ name: 'monitor__get-system-info', input: {} }] };
  if (/budget/.test(last)) return { toolUses: [{ name: 'budget__get-budget-data', input: {} }] };
  if (/time/.test(last)) return { toolUses: [{ name: 'basic__get-time', input: {} }] };
  return { text: 'ok' };
}

export interface AppsBench {
  /** Result on the page → the view shows it, per call, ms; the first is the view's first draw (its HTML read). */
  firstPaintMs: number[];
  withApps: FrameRun;
  withoutApps: FrameRun;
  /** The last view's loading steps, ms after the page mounted it: where its time goes. */
  lastTrace: Record<string, number>;
}

export interface FrameRun {
  frames: number[];
  long: number;
}

/**
 * Runs in every document of the page, the views' own included (a Playwright init script, which no CSP stops): notes
 * the first frame in which the view's #server-time holds a time, on the clock both ends read. Polling from the test
 * instead put Playwright's own trips into the three nested frames (about 150 ms) into the number.
 */
const SHOWN_WATCH = (): void => {
  const w = window as unknown as { __mcpAgentTimeShownAt?: number };
  const seen = (): boolean => /^\d{4}-/.test(document.getElementById('server-time')?.textContent ?? '');
  const observer = new MutationObserver(() => {
    if (w.__mcpAgentTimeShownAt !== undefined || !seen()) return;
    observer.disconnect();
    // The frame that draws it begins here.
    requestAnimationFrame(() => (w.__mcpAgentTimeShownAt = performance.timeOrigin + performance.now()));
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true });
};

export async function benchApps(calls: number, seconds: number): Promise<AppsBench> {
  const api = new FakeAnthropicApi(model);
  const url = await api.start();
  const vs = await startVscode({
    name: 'bench-apps',
    files: { 'a.txt': 'a\n' },
    settings: {
      'mcpAgent.apiBaseUrl': url,
      'mcpAgent.model': 'claude-test',
      'mcpAgent.servers': { basic: stdio('server-basic-vanillajs'), monitor: stdio('server-system-monitor'), budget: stdio('server-budget-allocator') },
    },
    env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
  });
  try {
    await vs.page.context().addInitScript(SHOWN_WATCH);
    await vs.waitForTreeItem('Tools', /budget\s*ready/, 90_000);
    const chat = await vs.openChat();
    /** Sends `text`; its call is allowed always (the first time it asks), so later calls run without a person. */
    const ask = async (text: string): Promise<void> => {
      await chat.locator('#send').waitFor({ state: 'visible' });
      const shown = await chat.locator('.app-view').count();
      await chat.locator('#input').fill(text);
      await chat.locator('#input').press('Enter');
      const approval = chat.locator('.approval[data-state="pending"] button[data-decision="always"]');
      const card = chat.locator('.app-view').nth(shown);
      await Promise.race([approval.click().catch(() => undefined), card.waitFor()]);
      await card.waitFor();
    };
    const firstPaintMs: number[] = [];
    let lastTrace: Record<string, number> = {};
    for (let i = 0; i < calls; i++) {
      await ask('what time is it?');
      const index = (await chat.locator('.app-view').count()) - 1;
      const callId = await chat.locator('.app-view').nth(index).getAttribute('data-call-id');
      const app = appViewFrame(chat, index);
      await app.locator('#server-time', { hasText: /^\d{4}-/ }).waitFor();
      // The view's own record (SHOWN_WATCH): reading it now adds nothing of Playwright's own trip into three frames.
      const paintedAt = await app.locator('body').evaluate(() => (window as unknown as { __mcpAgentTimeShownAt?: number }).__mcpAgentTimeShownAt);
      if (paintedAt === undefined) throw new Error('the watch did not run in the view (Playwright init scripts reach every frame)');
      const resultAt = await chat
        .locator('body')
        .evaluate((_b, id) => (window as unknown as { __mcpAgentChat: { appResultAt: Record<string, number> } }).__mcpAgentChat.appResultAt[id!], callId);
      if (resultAt === undefined) throw new Error('the chat page kept no time for the result of this call');
      firstPaintMs.push(paintedAt - resultAt);
      if (i === calls - 1) {
        const trace = await chat
          .locator('body')
          .evaluate(
            (_b, id) => (window as unknown as { __mcpAgentChat: { appTraces: Record<string, Record<string, number>> } }).__mcpAgentChat.appTraces[id!],
            callId,
          );
        const origin = await chat.locator('body').evaluate(() => performance.timeOrigin);
        lastTrace = Object.fromEntries(
          Object.entries({ ...trace, result: resultAt - origin, painted: paintedAt - origin })
            .map(([k, v]) => [k, Math.round(v - trace!.mount!)])
            .sort((a, b) => (a[1] as number) - (b[1] as number)),
        );
      }
    }
    await ask('show the system');
    const monitor = appViewFrame(chat, calls);
    await monitor.locator('#poll-toggle-btn').click();
    await chat.locator('.approval[data-from-app="true"][data-state="pending"] button[data-decision="always"]').first().click();
    await monitor.locator('#memory-percent', { hasText: /\d+%/ }).waitFor();
    await ask('show the budget');
    await appViewFrame(chat, calls + 1)
      .locator('.slider')
      .first()
      .waitFor();
    const withApps = await scrollFrames(chat, seconds);
    // The same page and scroll, the views' frames swapped for boxes of their height: what the live frames cost.
    await chat.locator('body').evaluate(() => {
      for (const f of document.querySelectorAll<HTMLIFrameElement>('.app-view iframe')) {
        const box = document.createElement('div');
        box.style.height = `${f.getBoundingClientRect().height}px`;
        f.replaceWith(box);
      }
    });
    const withoutApps = await scrollFrames(chat, seconds);
    return { firstPaintMs, withApps, withoutApps, lastTrace };
  } finally {
    await vs.close();
    await api.stop();
  }
}

/** Scrolls the chat 40 px a frame, down and back, for `seconds`, recording each frame's length and the long ones (> 50 ms). */
function scrollFrames(chat: FrameLocator, seconds: number): Promise<FrameRun> {
  return chat.locator('#scroller').evaluate(
    (el, ms) =>
      new Promise<FrameRun>((resolve) => {
        const frames: number[] = [];
        let last = 0;
        let dir = 1;
        const t0 = performance.now();
        const step = (t: number): void => {
          if (last) frames.push(t - last);
          last = t;
          const before = el.scrollTop;
          el.scrollTop += 40 * dir;
          if (el.scrollTop === before) dir = -dir;
          if (t - t0 < ms) requestAnimationFrame(step);
          else resolve({ frames, long: frames.filter((f) => f > 50).length });
        };
        el.scrollTop = 0;
        requestAnimationFrame(step);
      }),
    seconds * 1000,
  );
}
