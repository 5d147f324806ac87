// An MCP App view when the browser is on another machine than code-server and the extension host (a remote window):
// Chromium runs in a network namespace of its own (test/vscode/remote-network.ts), so the extension host's 127.0.0.1,
// where the sandbox proxy listens, is out of its reach, and code-server is reached over a veth pair. The view must
// still draw, framed from the workbench's own origin (asExternalUri's /proxy/<port>/ route), and no loopback URL may
// reach the browser: not in a frame's address, not in the chat page's CSP, not in any request it makes for the view.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Request } from 'playwright-core';
import { isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { outsideServer } from '../support/outside-servers';
import { remoteNetworkUnavailable } from '../vscode/remote-network';
import { chatRig } from './chat-rig';
import { appViewFrame } from '../vscode/harness';
import { shownText } from '../support/shown-text';

const BASIC = outsideServer('server-basic-vanillajs');
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;

function model(body: MessagesBody): Reply {
  if (isToolResultTurn(body)) return { text: 'The time is shown above.' };
  if (/what time/.test(lastUserText(body))) return { toolUses: [{ name: 'basic__get-time', input: {} }] };
  return { text: 'ok' };
}

/** An address of the machine it is read on: for a browser elsewhere, never the extension host's. */
function isLoopback(url: string): boolean {
  let host: string;
  try {
    host = new URL(url.replace(/^blob:/, '')).hostname;
  } catch {
    return false;
  }
  return /^(127\.|0\.0\.0\.0$|localhost$|\[::1?\]$)/.test(host) || host.endsWith('.localhost');
}

/** What a fetch from inside the namespace got: `status <n>`, or `error <code>`. */
const FETCH = `fetch(process.argv[1]).then((r) => console.log('status', r.status), (e) => console.log('error', e.cause?.code ?? e.message))`;

const unavailable = remoteNetworkUnavailable();

describe('an MCP App view with the browser on another machine (a remote window)', { skip: unavailable }, () => {
  const rig = chatRig(
    'apps-remote',
    model,
    { 'a.txt': 'a\n' },
    { 'mcpAgent.servers': { basic: { type: 'stdio', command: process.execPath, args: [BASIC, '--stdio'], env: { ELECTRON_RUN_AS_NODE: '1' } } } },
    { remoteBrowser: true },
  );

  test("the view draws from the workbench's origin, and the browser never sees or reaches the host's loopback", async (t) => {
    const { vs } = rig;
    const remote = vs.remote;
    assert.ok(remote, 'started with remoteBrowser');
    const workbench = new URL(vs.url).origin;
    assert.equal(new URL(workbench).hostname, remote.hostAddress, 'the workbench is reached over the veth pair');
    const requests: string[] = [];
    const record = (r: Request) => void requests.push(r.url());
    vs.page.context().on('request', record);

    await vs.waitForTreeItem('Tools', /basic\s*ready/, 90_000);
    const chat = await vs.openChat();
    const csp = (await chat.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')) ?? '';
    assert.ok(csp.includes(`frame-src ${workbench}`), `the chat may frame the workbench's origin only: ${csp}`);
    assert.ok(!/127\.0\.0\.1|localhost/.test(csp), `no loopback origin in the chat's CSP: ${csp}`);

    await chat.locator('#input').fill('what time is it?');
    await chat.locator('#input').press('Enter');
    const approval = chat.locator('.approval[data-state="pending"]');
    await approval.waitFor();
    await approval.locator('button[data-decision="once"]').click();
    await chat.locator('.tool-card[data-status="done"]').waitFor();

    // Before waiting on the view: a loopback address here would never load, and this says why at once.
    const proxyFrame = chat.locator('.app-view iframe').first();
    await proxyFrame.waitFor({ state: 'attached' });
    const src = new URL((await proxyFrame.getAttribute('src')) ?? '');
    assert.equal(src.origin, workbench, `the proxy is framed from the workbench's own origin: ${src.href}`);
    const route = /^\/proxy\/(\d+)(\/.+)$/.exec(src.pathname);
    assert.ok(route, `the proxy is reached through code-server's port route: ${src.pathname}`);

    await chat.locator('.app-view[data-state="shown"]').waitFor({ timeout: 60_000 });
    const time = appViewFrame(chat).locator('#server-time');
    await time.filter({ hasText: ISO }).waitFor();
    const shown = await shownText(time);
    await chat.locator('.tool-card .tool-header').first().click();
    assert.ok((await shownText(chat.locator('.tool-card .tool-result').first())).includes(shown), 'the view got the result of this call');
    t.diagnostic(`screenshot: ${await vs.screenshot('remote-view')}`);

    vs.page.context().off('request', record);
    assert.ok(
      requests.some((u) => u.startsWith(`${workbench}/proxy/${route[1]}/`)),
      `the recorder saw the proxy page load (else it saw nothing): ${requests.length} requests`,
    );
    assert.deepEqual(requests.filter(isLoopback), [], 'the browser asked no loopback address for anything');
    const frames = vs.page.frames().map((f) => f.url());
    assert.deepEqual(frames.filter(isLoopback), [], `no frame is at a loopback address: ${frames.join(', ')}`);

    // The same page at the listener's own address: served on the extension host's machine, out of the browser's reach.
    const local = `http://127.0.0.1:${route[1]}${route[2]}`;
    const here = await fetch(local);
    assert.equal(here.status, 200, 'the extension host serves the proxy page on its loopback');
    assert.match(here.headers.get('content-security-policy') ?? '', /^sandbox allow-scripts;/, 'and it is the proxy page');
    const probe = await vs.page.context().newPage();
    try {
      await assert.rejects(probe.goto(local), /ERR_CONNECTION_REFUSED/, "the browser's own 127.0.0.1 has nothing there");
    } finally {
      await probe.close();
    }
    const inBrowserMachine = (url: string) => remote.run(process.execPath, ['-e', FETCH, url]).stdout.trim();
    assert.equal(inBrowserMachine(`${workbench}/healthz`), 'status 200', "the browser's machine reaches code-server");
    assert.equal(inBrowserMachine(local), 'error ECONNREFUSED', "and not the extension host's loopback");
  });
});
