// Two more MCP App servers from npm in the real VS Code: server-system-monitor over stdio (its view polls an app-only
// tool, which the person allows through the chat's approval path) and server-budget-allocator over streamable HTTP
// (its own process, started here on a free port). Both views are drawn under their cards and paint what they got.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { hostname } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { FrameLocator, Locator } from 'playwright-core';
import { isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { repoRoot } from '../support/repo-root';
import { chatRig } from './chat-rig';
import { appViewFrame } from '../vscode/harness';
import { shownText } from '../support/shown-text';

const pkg = (name: string): string => join(repoRoot(), 'node_modules', '@modelcontextprotocol', name, 'dist', 'index.js');

function model(body: MessagesBody): Reply {
  const last = lastUserText(body);
  if (isToolResultTurn(body)) return { text: 'Here it is.' };
  if (/system/.test(last)) return { toolUses: [{ name: 'monitor__get-system-info', input: {} }] };
  if (/budget/.test(last)) return { toolUses: [{ name: 'budget__get-budget-data', input: {} }] };
  return { text: 'ok' };
}

/**
 * Chart.js draws budget-allocator's ring in over about a second: a screenshot taken before then shows part of a ring,
 * which reads as a broken view. Waits until two looks at the canvas, a quarter second apart, are the same (a few
 * seconds at most: only the screenshot depends on it).
 */
async function chartDrawn(canvas: Locator): Promise<void> {
  let last = '';
  for (let look = 0; look < 20; look++) {
    const now = await canvas.evaluate((c: HTMLCanvasElement) => c.toDataURL());
    if (now === last) return;
    last = now;
    await new Promise((r) => setTimeout(r, 250));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe('MCP App servers from npm: system-monitor (stdio) and budget-allocator (HTTP)', () => {
  let budget: ChildProcess | undefined;
  const servers: Record<string, unknown> = {
    monitor: { type: 'stdio', command: process.execPath, args: [pkg('server-system-monitor'), '--stdio'], env: { ELECTRON_RUN_AS_NODE: '1' } },
  };
  // Before the rig's hook: the HTTP server is up, and named in the settings, when VS Code starts.
  before(async () => {
    const port = await freePort();
    budget = spawn(process.execPath, [pkg('server-budget-allocator')], {
      env: { PATH: process.env.PATH, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      budget!.stdout!.on('data', (d: Buffer) => d.toString().includes('listening') && resolve());
      budget!.on('exit', (code) => reject(new Error(`budget-allocator exited (${code})`)));
    });
    servers.budget = { type: 'http', url: `http://127.0.0.1:${port}/mcp` };
  });
  after(() => {
    budget?.kill();
  });
  const rig = chatRig('apps-servers', model, { 'a.txt': 'a\n' }, { 'mcpAgent.servers': servers });

  async function ask(chat: FrameLocator, text: string): Promise<void> {
    await chat.locator('#send').waitFor({ state: 'visible' });
    await chat.locator('#input').fill(text);
    await chat.locator('#input').press('Enter');
    // The model's call: a view's own calls may be waiting too (a view polls on a timer).
    await chat.locator('.approval[data-state="pending"]:not([data-from-app="true"]) button[data-decision="once"]').click();
  }

  test("system-monitor over stdio: the view shows this machine's name, and polls its app-only tool once the person allows it", async (t) => {
    await rig.vs.waitForTreeItem('Tools', /monitor\s*ready/, 90_000);
    const chat = await rig.vs.openChat();
    await ask(chat, 'show the system');
    await chat.locator('.app-view[data-state="shown"]').first().waitFor({ timeout: 60_000 });
    const app = appViewFrame(chat, 0);
    await app.locator('#info-hostname', { hasText: hostname() }).waitFor();
    await app.locator('#poll-toggle-btn').click();
    // The view polls on a timer: a second poll may ask before the first is answered.
    const asked = chat.locator('.approval[data-from-app="true"][data-state="pending"]');
    await asked.first().waitFor();
    assert.match(await shownText(asked.first()), /monitor · poll-system-stats/);
    await asked.first().locator('button[data-decision="always"]').click();
    while ((await asked.count()) > 0) await asked.first().locator('button[data-decision="once"]').click();
    await app.locator('#memory-percent', { hasText: /\d+%/ }).waitFor();
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('system-monitor')}`);
  });

  test('budget-allocator over HTTP: the view draws its sliders from the result', async (t) => {
    await rig.vs.waitForTreeItem('Tools', /budget\s*ready/, 90_000);
    const chat = await rig.vs.openChat();
    await ask(chat, 'show the budget');
    await chat.locator('.app-view[data-state="shown"]').nth(1).waitFor({ timeout: 60_000 });
    const app = appViewFrame(chat, 1);
    await app.locator('.slider').first().waitFor();
    assert.ok((await app.locator('.slider').count()) >= 3, 'a slider per category');
    await chat.locator('.app-view').nth(1).scrollIntoViewIfNeeded();
    await chartDrawn(app.locator('canvas').first());
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('budget-allocator')}`);
  });
});
