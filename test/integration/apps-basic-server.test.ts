// An MCP App server nobody here wrote: @modelcontextprotocol/server-basic-vanillajs from npm (a devDependency),
// over stdio through the real hub and ChatSession, against the fake Messages API. Its get-time tool has a view
// (ui://get-time/mcp-app.html): the tool's card says so (the event names the view), the result is kept whole for
// the view and never sent to the page, the host says it draws views, and the CLI says the tool has a view and
// where to see it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { McpHub } from '../../src/core/mcp/hub/hub';
import { MAX_APP_MESSAGES } from '../../src/core/apps/app-messages';
import { pageEvents } from '../../src/core/chat/chat-format';
import { modelToolHost } from '../../src/core/tool-offer/tool-choices';
import { toolLines } from '../../src/core/chat/slash-commands';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { openTestChat, testTurn } from '../support/test-chat';
import { runCli } from './helpers/cli-process';
import { outsideServer } from '../support/outside-servers';
import { scaled } from '../support/until';

const T = { timeout: scaled(60_000) };
const BASIC_SERVER = outsideServer('server-basic-vanillajs');
const VIEW = 'ui://get-time/mcp-app.html';

function model(body: MessagesBody): Reply {
  if (isToolResultTurn(body)) return { text: `tool said: ${lastUserText(body).slice(0, 300)}` };
  const call = /call (\S+)/.exec(lastUserText(body));
  return call ? { toolUses: [{ name: call[1]!, input: {} }] } : { text: 'ok' };
}

describe('@modelcontextprotocol/server-basic-vanillajs: a tool with a view', () => {
  const api = new FakeAnthropicApi(model);
  let dir: string;
  let hub: McpHub;
  let client: Anthropic;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apps-basic-'));
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
    hub = new McpHub([{ name: 'basic', transport: 'stdio', command: process.execPath, args: [BASIC_SERVER, '--stdio'] }], { connection: { roots: [dir] } });
    hub.start();
    await hub.settled();
    assert.equal(hub.status('basic')?.state, 'ready', hub.status('basic')?.error);
  });
  after(async () => {
    await hub.dispose();
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the card names the view; the whole result is kept for it and never sent to the page', T, async () => {
    const { session, events } = openTestChat(modelToolHost(hub), dir);
    await session.send('call basic__get-time', [], testTurn(client));
    await session.flush();
    const call = events.find((e) => e.kind === 'tool_call');
    assert.ok(call?.kind === 'tool_call');
    assert.deepEqual(call.app, { resourceUri: VIEW });
    const result = events.find((e) => e.kind === 'tool_result');
    assert.ok(result?.kind === 'tool_result');
    const kept = result.appResult as { structuredContent?: { time?: string } };
    assert.match(kept.structuredContent?.time ?? '', /^\d{4}-\d\d-\d\dT/, 'structuredContent, which the card never shows, is kept for the view');
    const shown = pageEvents(events).find((e) => e.kind === 'tool_result');
    assert.ok(shown?.kind === 'tool_result' && !('appResult' in shown), 'the page is never sent the kept result');
    for (const r of api.requests) assert.doesNotMatch(JSON.stringify(r.body), /<script|<!doctype html/i);
  });

  test("a view's messages are the view's, and a view cannot run turn after turn on its own", T, async () => {
    const { session } = openTestChat(modelToolHost(hub), dir);
    const config = testTurn(client);
    // The turn is over once the session says it is no longer busy (its turn_end event comes a little before).
    const turnEnded = (): Promise<void> => new Promise((resolve) => session.on('busy', (busy) => !busy && resolve()));
    await session.send('hello', [], config);
    for (let i = 0; i < MAX_APP_MESSAGES; i++) {
      const ended = turnEnded();
      await session.sendFromApp('basic', `view message ${i}`, config);
      await ended;
    }
    const told = lastUserText(api.requests.at(-1)!.body);
    assert.match(told, /sent by the app, not typed by the person/);
    await assert.rejects(session.sendFromApp('basic', 'one more', config), /Views have sent 3 messages since the person last wrote/);
    await session.send('me again', [], config);
    const ended = turnEnded();
    await session.sendFromApp('basic', 'after the person', config);
    await ended;
    const users = session.events.filter((e) => e.kind === 'user');
    assert.deepEqual(
      users.map((e) => (e.kind === 'user' ? (e.app ?? 'person') : '')),
      ['person', 'basic', 'basic', 'basic', 'person', 'basic'],
    );
    await session.flush();
  });

  test('/tools marks the tool as having an interactive view', T, () => {
    const lines = toolLines(hub, { host: modelToolHost(hub) });
    assert.ok(
      lines.some((l) => /basic__get-time\s+\[loaded, interactive view\]/.test(l)),
      lines.join('\n'),
    );
    assert.match(lines.at(-1)!, /interactive view \(MCP App\) draws it under its card in the VS Code chat/);
  });

  test('the CLI says the tool has an interactive view and how to see it', T, async () => {
    const config = join(dir, 'servers.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { basic: { command: process.execPath, args: [BASIC_SERVER, '--stdio'] } } }));
    const r = await runCli(['--workspace', dir, '--mcp-config', config, '--plain', 'call basic__get-time'], {
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: api.url,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /\[view\] basic__get-time has an interactive view \(ui:\/\/get-time\/mcp-app\.html\): a terminal cannot draw it; reopen this chat in VS Code \(MCP Agent's Chats view\)/,
    );
  });
});
