// MCP App views that push on the host's limits, in the real VS Code (test/fakes/mcp-pushy-app.ts over stdio): one
// that asks for full screen and links unasked and then in floods, one that runs code made at run time, one wider
// than the side bar.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { localSite, type LocalSite } from '../fakes/local-site';
import { repoRoot } from '../support/repo-root';
import { chatRig } from './chat-rig';
import { appViewFrame } from '../vscode/harness';
import { shownText } from '../support/shown-text';

const PUSHY = join(repoRoot(), 'out', 'test', 'fakes', 'mcp-pushy-app.js');
const NO_GESTURE = 'error: Refused: a view may ask for this only right after the person clicks or types in it.';

function model(body: MessagesBody): Reply {
  const last = lastUserText(body);
  if (isToolResultTurn(body)) return { text: 'Shown.' };
  const tool = /^show (flood|evaluate|wide)$/.exec(last)?.[1];
  if (tool) return { toolUses: [{ name: `pushy__${tool}`, input: {} }] };
  return { text: `You said: ${last.slice(-200)}` };
}

type Report = Record<string, unknown>;
async function report(view: FrameLocator): Promise<Report> {
  return JSON.parse(await shownText(view.locator('#report'))) as Report;
}

describe('MCP App views that push on their limits', () => {
  let site: LocalSite;
  const args = [PUSHY];
  // Before the rig's own hook: the server's arguments name the probe's port by the time VS Code starts.
  before(async () => {
    site = await localSite('<html><body>probe</body></html>');
    args.push(`--probe=http://127.0.0.1:${site.port}`);
  });
  after(() => site.server.close());
  const rig = chatRig(
    'apps-pushy',
    model,
    {},
    { 'mcpAgent.servers': { pushy: { type: 'stdio', command: process.execPath, args, env: { ELECTRON_RUN_AS_NODE: '1' } } } },
  );

  /** In a chat of its own: the model calls the tool, the person allows it once, and its view is drawn. */
  async function show(tool: string): Promise<{ chat: FrameLocator; view: FrameLocator }> {
    await rig.vs.waitForTreeItem('Tools', /pushy\s*ready/, 90_000);
    const chat = await rig.vs.openChat();
    await rig.vs.runCommand('MCP Agent: New Chat');
    await chat.locator('.msg').first().waitFor({ state: 'detached' });
    await chat.locator('#input').fill(`show ${tool}`);
    await chat.locator('#input').press('Enter');
    await chat.locator('.approval[data-state="pending"] button[data-decision="once"]').click();
    await chat.locator('.app-view[data-state="shown"]').waitFor({ timeout: 60_000 });
    return { chat, view: appViewFrame(chat) };
  }

  const appTabs = () => rig.vs.page.locator('.tabs-container .tab', { hasText: 'pushy · flood' });

  test('full screen and links: refused unasked; after a click four full-screen asks open one tab, five links one question', async (t) => {
    const { view } = await show('flood');
    // Unasked, on load: nothing opens, and the view is told why.
    await view.locator('#report', { hasText: '"linkUnasked"' }).waitFor();
    let r = await report(view);
    assert.equal(r.fullscreenUnasked, NO_GESTURE);
    assert.equal(r.linkUnasked, NO_GESTURE);
    assert.equal(await rig.vs.page.locator('.monaco-dialog-box').count(), 0, 'no question was put to the person');
    assert.equal(await appTabs().count(), 0, 'no tab opened');

    // A click: four asks at once, one tab.
    await view.locator('#fullscreen').click();
    await view.locator('#report', { hasText: '"fullscreenCount":4' }).waitFor();
    assert.deepEqual((await report(view)).fullscreen, Array(4).fill('ok: {"mode":"inline"}'), 'after a click each ask is answered');
    await appTabs().first().waitFor();
    // The tab's own copy of the view asks again as it loads (unasked): the same tab, no second one.
    const frames = rig.vs.page.locator('iframe.webview.ready[src*="extensionId=mcp-agent.mcp-agent"]');
    await frames.nth(1).waitFor();
    const srcs = await frames.evaluateAll((els) => els.map((e) => (e as HTMLIFrameElement).src));
    const tab = frames
      .nth(srcs.findIndex((s) => !/purpose=webviewView/.test(s)))
      .contentFrame()
      .locator('#active-frame')
      .contentFrame();
    const copy = appViewFrame(tab);
    await copy.locator('#report', { hasText: '"linkUnasked"' }).waitFor({ timeout: 60_000 });
    assert.equal((await report(copy)).fullscreenUnasked, NO_GESTURE);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('pushy-one-tab')}`);
    assert.equal(await appTabs().count(), 1, 'four asks and a copy asking again: one tab');
    // Asked again after another click: the open tab is shown, still one.
    await copy.locator('#fullscreen').click();
    await copy.locator('#report', { hasText: '"fullscreenCount":4' }).waitFor();
    assert.equal(await appTabs().count(), 1);
    await rig.vs.runCommand('View: Close All Editors');
    await appTabs().first().waitFor({ state: 'detached' });

    // Five links at once: one question, four refused at once, while it is open.
    const chat = await rig.vs.openChat();
    const inline = appViewFrame(chat);
    await inline.locator('#links').click();
    const dialog = rig.vs.page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    await inline.locator('#report', { hasText: '"linksCount":4' }).waitFor();
    r = await report(inline);
    assert.equal((r.links as string[]).filter((l) => /^error: .*Another link is waiting for the person to answer/.test(l)).length, 4, String(r.links));
    assert.equal(await dialog.count(), 1, 'one question at a time');
    assert.match(await shownText(dialog), /https:\/\/example\.com\/1/);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('pushy-one-link-question')}`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await inline.locator('#report', { hasText: '"linksCount":5' }).waitFor();
    assert.equal(((await report(inline)).links as string[])[4], 'refused', 'the one asked was answered: Cancel');
    assert.equal(await dialog.count(), 0, 'no question waits behind it');
  });

  test("a view's code made at run time (eval, new Function) runs, and reaches no more of the network than the view", async (t) => {
    const { view } = await show('evaluate');
    await view.locator('#report', { hasText: '"done":true' }).waitFor();
    const r = await report(view);
    t.diagnostic(JSON.stringify(r));
    assert.equal(r.eval, '42');
    assert.equal(r.newFunction, 'drawn');
    assert.match(String(r.fetch), /^blocked/);
    assert.equal(r.image, 'blocked');
    assert.deepEqual(site.hits, [], 'nothing reached the undeclared host');
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('pushy-evaluate')}`);
  });

  test('a view wider than the side bar scrolls sideways: its right edge can be reached', async (t) => {
    const { chat, view } = await show('wide');
    const box = chat.locator('.app-view[data-state="shown"]');
    await view.locator('#right-edge').waitFor();
    const { scrollWidth, clientWidth } = await box.evaluate((b) => ({ scrollWidth: b.scrollWidth, clientWidth: b.clientWidth }));
    t.diagnostic(`side bar view box: ${clientWidth} px wide, content ${scrollWidth} px`);
    assert.ok(scrollWidth > clientWidth, `the box scrolls (${scrollWidth} > ${clientWidth})`);
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('pushy-wide-left')}`);
    /** How far the right edge's right side is past the box's right side (positive: cut off). */
    const past = async (): Promise<number> => {
      const edge = await view.locator('#right-edge').evaluate((e) => e.getBoundingClientRect().right);
      return box.evaluate((b, right) => {
        const frame = b.querySelector('iframe')!.getBoundingClientRect();
        return frame.left + right - b.getBoundingClientRect().right;
      }, edge);
    };
    assert.ok((await past()) > 0, 'at first the right edge is past the side bar');
    await box.evaluate((b) => (b.scrollLeft = b.scrollWidth));
    assert.ok((await past()) <= 0, 'scrolled, the right edge is in sight');
    t.diagnostic(`screenshot: ${await rig.vs.screenshot('pushy-wide-scrolled')}`);
  });
});
