// A view of a reopened chat whose server is still starting (after a window reload the page asks for its views
// before the person's own servers have joined the hub): it says it waits, and draws once the server is up, instead
// of being refused. Against @modelcontextprotocol/server-basic-vanillajs over stdio, through the real hub.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpHub } from '../../src/core/mcp/hub/hub';
import { untilStarted } from '../../src/core/mcp/hub/readiness';
import { AppMounts, type AppChat } from '../../src/core/apps/app-mounts';
import { SandboxProxy } from '../../src/core/apps/sandbox-proxy';
import type { AppContext, ChatEvent, HostMessage } from '../../src/common/protocol';
import type { ServerConfig } from '../../src/core/mcp/types';
import { outsideServer } from '../support/outside-servers';
import { scaled } from '../support/until';

const T = { timeout: scaled(60_000) };
const BASIC_SERVER = outsideServer('server-basic-vanillajs');
const BASIC: ServerConfig = { name: 'basic', transport: 'stdio', command: process.execPath, args: [BASIC_SERVER, '--stdio'] };

/** A saved chat with one call of get-time and its result, as a reopened chat has them. */
function savedChat(): AppChat {
  const events: ChatEvent[] = [
    { kind: 'tool_call', turnId: 't1', callId: 'c1', server: 'basic', tool: 'get-time', input: {}, app: { resourceUri: 'ui://get-time/mcp-app.html' } },
    { kind: 'tool_result', callId: 'c1', isError: false, content: [{ type: 'text', text: '2026-11-26T03:00:00Z' }], durationMs: 5 },
  ];
  return {
    id: 'chat',
    events,
    callForApp: () => Promise.reject(new Error('no calls in this test')),
    sendFromApp: () => Promise.reject(new Error('no messages in this test')),
    setAppContext: () => undefined,
  };
}

const CONTEXT: AppContext = { theme: 'dark', variables: {}, width: 300, maxHeight: 600, displayMode: 'inline' };

/** A hub that starts with no servers, the person's own applied when the test says (as the extension's manager does). */
function rig() {
  const hub = new McpHub([], {});
  hub.start();
  let apply!: () => void;
  const applied = new Promise<void>((resolve) => (apply = resolve));
  const proxy = new SandboxProxy();
  const lines: string[] = [];
  const mounts = new AppMounts(
    hub,
    proxy,
    {
      externalUrl: (local) => Promise.resolve(local),
      openLink: () => Promise.resolve(false),
      log: (line) => lines.push(line),
      serverStarted: async (server) => {
        await applied;
        await untilStarted(hub, server);
      },
    },
    '1.0.0',
  );
  const posted: HostMessage[] = [];
  const post = (m: HostMessage) => void posted.push(m);
  return { hub, proxy, mounts, posted, post, apply, lines };
}

describe('a view whose server is still starting', () => {
  test('says it waits, then draws from the saved call once the server is up', T, async () => {
    const r = rig();
    try {
      const mounted = r.mounts.mount(savedChat(), 'v1', 'c1', CONTEXT, r.post);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(
        r.posted.map((m) => m.type),
        ['appWaiting'],
        'nothing is refused while the config is not applied',
      );
      assert.match(r.posted[0]!.type === 'appWaiting' ? r.posted[0]!.why : '', /Waiting for MCP server basic to start/);
      await r.hub.update([BASIC]);
      r.apply();
      await mounted;
      const frame = r.posted.find((m) => m.type === 'appFrame');
      assert.ok(frame?.type === 'appFrame', `the view's frame came: ${JSON.stringify(r.posted)} ${r.lines.join('\n')}`);
      assert.equal(
        r.posted.some((m) => m.type === 'appGone'),
        false,
      );
    } finally {
      await r.mounts.unmountAll('test over');
      r.proxy.dispose();
      await r.hub.dispose();
    }
  });

  test('a server that is not configured once all is applied: the view says so', T, async () => {
    const r = rig();
    try {
      const mounted = r.mounts.mount(savedChat(), 'v1', 'c1', CONTEXT, r.post);
      r.apply();
      await mounted;
      const gone = r.posted.find((m) => m.type === 'appGone');
      assert.ok(gone?.type === 'appGone', JSON.stringify(r.posted));
      assert.match(gone.why, /server basic is not running/);
    } finally {
      r.proxy.dispose();
      await r.hub.dispose();
    }
  });

  test('a page that goes while its view waits mounts nothing', T, async () => {
    const r = rig();
    try {
      const mounted = r.mounts.mount(savedChat(), 'v1', 'c1', CONTEXT, r.post);
      await r.mounts.unmount('v1', 'The chat page closed.');
      await r.hub.update([BASIC]);
      r.apply();
      await mounted;
      assert.deepEqual(
        r.posted.map((m) => m.type),
        ['appWaiting'],
      );
    } finally {
      r.proxy.dispose();
      await r.hub.dispose();
    }
  });
});
