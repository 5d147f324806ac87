// A call's view is read while the call runs, once per call: a fast call allowed "always" has its result before
// the page mounts its view, and the view's HTML is then ready. Through the real hub and ChatSession, against
// test/fakes/mcp-app-reads.ts over stdio (it counts the reads of its view, and its tool answers only once its view
// was read or a long wait passed) and the fake Messages API; the chat's events reach AppMounts as the extension's
// open chat sends them, and each view is mounted after its call's result, as the page does for a fast call.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { McpHub } from '../../src/core/mcp/hub/hub';
import { AppMounts, type AppChat } from '../../src/core/apps/app-mounts';
import { SandboxProxy } from '../../src/core/apps/sandbox-proxy';
import { modelToolHost } from '../../src/core/tool-offer/tool-choices';
import type { AppContext, ChatEvent, HostMessage } from '../../src/common/protocol';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { openTestChat, testTurn } from '../support/test-chat';
import { scaled, until } from '../support/until';
import { fakeConfig } from './mcp-support';

const T = { timeout: scaled(60_000) };
const CONTEXT: AppContext = { theme: 'dark', variables: {}, width: 300, maxHeight: 600, displayMode: 'inline' };

function model(body: MessagesBody): Reply {
  if (isToolResultTurn(body)) return { text: 'done' };
  const call = /call (\S+)/.exec(lastUserText(body));
  return call ? { toolUses: [{ name: call[1]!, input: {} }] } : { text: 'ok' };
}

describe("a call's view is read while the call runs", () => {
  const api = new FakeAnthropicApi(model);
  const proxy = new SandboxProxy();
  const lines: string[] = [];
  let dir: string;
  let hub: McpHub;
  let client: Anthropic;
  let mounts: AppMounts;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apps-prefetch-'));
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
    hub = new McpHub([fakeConfig('reads', 'mcp-app-reads', `--wait-ms=${scaled(10_000)}`)], { connection: { roots: [dir] } });
    hub.start();
    await hub.settled();
    assert.equal(hub.status('reads')?.state, 'ready', hub.status('reads')?.error);
    mounts = new AppMounts(
      hub,
      proxy,
      { externalUrl: (local) => Promise.resolve(local), openLink: () => Promise.resolve(false), log: (l) => lines.push(l) },
      '1.0.0',
    );
  });
  after(async () => {
    await mounts.unmountAll('test over');
    proxy.dispose();
    await hub.dispose();
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A chat whose events reach the views as the open chat's do; `call` runs one turn that calls `tool`. */
  function chat(): { app: AppChat; call: (tool: string) => Promise<{ callId: string; result: Extract<ChatEvent, { kind: 'tool_result' }> }> } {
    const { session, events } = openTestChat(modelToolHost(hub), dir);
    session.on('event', (e) => mounts.onEvent(e));
    const app: AppChat = {
      id: 'chat',
      events,
      callForApp: () => Promise.reject(new Error('no calls from views here')),
      sendFromApp: () => Promise.reject(new Error('no messages from views here')),
      setAppContext: () => undefined,
    };
    const call = async (tool: string) => {
      await session.send(`call ${tool}`, [], testTurn(client));
      await session.flush();
      const result = events.filter((e) => e.kind === 'tool_result').at(-1);
      assert.ok(result?.kind === 'tool_result', JSON.stringify(events));
      return { callId: result.callId, result };
    };
    return { app, call };
  }

  /** Mounts a view of the call, then answers as its proxy page would once loaded: the HTML the host then gives it. */
  async function viewHtml(app: AppChat, view: string, callId: string): Promise<string> {
    const posted: HostMessage[] = [];
    await mounts.mount(app, view, callId, CONTEXT, (m) => void posted.push(m));
    assert.ok(
      posted.some((m) => m.type === 'appFrame'),
      `the view's frame came: ${JSON.stringify(posted)} ${lines.join('\n')}`,
    );
    mounts.receive(view, { jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} });
    return until(
      () => {
        const ready = posted.find((m) => m.type === 'app' && (m.message as { method?: string }).method === 'ui/notifications/sandbox-resource-ready');
        return ready?.type === 'app' && (ready.message as { params: { html: string } }).params.html;
      },
      { what: "the view's HTML", seen: () => posted },
    );
  }

  async function reads(): Promise<number> {
    const r = await hub.callTool('reads__reads');
    return Number(r.content[0]?.type === 'text' ? r.content[0].text : NaN);
  }

  test('each call reads its view once, before its result, and its view draws that read', T, async () => {
    const { app, call } = chat();
    const first = await call('reads__stamp');
    assert.equal(
      (first.result.appResult as { structuredContent?: { readsAtResult?: number } }).structuredContent?.readsAtResult,
      1,
      'the view was read while the call ran',
    );
    assert.match(await viewHtml(app, 'v1', first.callId), /read 1</);
    assert.equal(await reads(), 1, 'the view mounted after the result did not read again');

    const second = await call('reads__stamp');
    assert.equal((second.result.appResult as { structuredContent?: { readsAtResult?: number } }).structuredContent?.readsAtResult, 2);
    assert.match(await viewHtml(app, 'v2', second.callId), /read 2</, 'the next call draws the view as the server serves it now');
    assert.equal(await reads(), 2, 'one read per call');
  });

  test('a view that cannot be read fails no call: its view says why when it loads', T, async () => {
    const { app, call } = chat();
    const { callId, result } = await call('reads__broken');
    assert.equal(result.isError, false, JSON.stringify(result));
    const posted: HostMessage[] = [];
    await mounts.mount(app, 'v3', callId, CONTEXT, (m) => void posted.push(m));
    const gone = posted.find((m) => m.type === 'appGone');
    assert.ok(gone?.type === 'appGone', JSON.stringify(posted));
    assert.match(gone.why, /The view could not be shown: .*this view cannot be read/);
  });
});
