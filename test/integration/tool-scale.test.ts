// Every tool reachable at any scale, through real processes: the bundled servers and an MCP server of
// 300, 1,000 and 10,000 tools (test/fakes/mcp-many-tools.ts, over stdio, listed in pages), the real hub,
// ChatSession and the CLI, against the fake Messages API and its tool search. The model reaches the
// catalogue's last tool within two model calls whichever search is used: the API's (its search and the
// call in one reply), or the host's search_tools (past the API's 10,000-tool catalogue, behind a proxy).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { McpHub } from '../../src/core/mcp/hub/hub';
import { bundledServerConfigs } from '../../src/core/mcp/hub/bundled-servers';
import { modelToolHost } from '../../src/core/tool-offer/tool-choices';
import type { ToolSearchSetting } from '../../src/core/tool-offer/tool-search-mode';
import type { ChatEvent } from '../../src/common/protocol';
import { FakeAnthropicApi } from '../fakes/anthropic-api';
import { openTestChat, testTurn } from '../support/test-chat';
import { seeker } from '../fakes/tool-seeker';
import { runCli } from './helpers/cli-process';
import { fake, fakeConfig, repoRoot } from './mcp-support';
import { scaled } from '../support/until';

const T = { timeout: scaled(120_000) };

describe('every tool reachable at 300, 1,000 and 10,000 tools', () => {
  const api = new FakeAnthropicApi();
  let dir: string;
  let client: Anthropic;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tool-scale-'));
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
  });
  after(async () => {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One chat turn asking for the catalogue's last tool, with the bundled servers and `count` more tools running. */
  async function reachLast(count: number, toolSearch: ToolSearchSetting) {
    const hub = new McpHub([...bundledServerConfigs(join(repoRoot(), 'dist'), dir, {}), fakeConfig('many', 'mcp-many-tools', String(count))], {
      connection: { roots: [dir] },
    });
    hub.start();
    try {
      await hub.settled();
      assert.equal(hub.status('many')?.tools.length, count);
      const target = `many__tool_${count - 1}`;
      const reachedAt: number[] = [];
      api.setScript(seeker(target, `tool ${count - 1}`, reachedAt));
      api.requests.length = 0;
      // The catalogue's tools are not read-only: the person allows each call.
      const { session, events } = openTestChat(modelToolHost(hub), dir);
      const status = await session.send(`Run the last tool of the many server.`, [], testTurn(client, { maxIterations: 5, toolTimeoutMs: 30_000, toolSearch }));
      await session.flush();
      assert.equal(status, 'done');
      const call = events.find((e): e is Extract<ChatEvent, { kind: 'tool_call' }> => e.kind === 'tool_call' && e.tool === `tool_${count - 1}`);
      assert.ok(call, `the model called ${target}`);
      const result = events.find((e) => e.kind === 'tool_result' && e.callId === call.callId);
      assert.deepEqual(result?.kind === 'tool_result' && result.content, [{ type: 'text', text: `tool_${count - 1}` }], 'the server ran it');
      const search = api.requests[0]!.body.tools!.some((t) => t.type?.startsWith('tool_search_tool')) ? 'api' : 'host';
      return { reachedAt: reachedAt[0]!, search, first: api.requests[0]!, events };
    } finally {
      await hub.dispose();
    }
  }

  for (const count of [300, 1000]) {
    test(`${count.toLocaleString('en-US')} tools: the API's tool search finds the last and the model calls it in the same model call`, T, async () => {
      const { reachedAt, search, first, events } = await reachLast(count, 'api');
      assert.equal(search, 'api');
      assert.equal(reachedAt, 1);
      assert.equal(first.body.tools!.filter((t) => t.defer_loading).length, count + 20 - 9, 'every tool but the 9 core ones is deferred');
      const notice = events.find((e) => e.kind === 'notice');
      assert.equal(
        notice?.kind === 'notice' && notice.text,
        `${(count + 20).toLocaleString('en-US')} tools from 5 servers: 9 loaded, the rest found by search.`,
      );
    });
  }

  test("10,000 tools: past the API's catalogue limit the host's search_tools finds the last, and the next model call calls it", T, async () => {
    const { reachedAt, search } = await reachLast(10_000, 'api');
    assert.equal(search, 'host');
    assert.equal(reachedAt, 2);
  });

  test("1,000 tools behind another base URL (auto): the host's search, within two model calls", T, async () => {
    const { reachedAt, search } = await reachLast(1000, 'auto');
    assert.equal(search, 'host', 'the fake API is not api.anthropic.com');
    assert.equal(reachedAt, 2);
  });

  test('the CLI reaches the last of 1,000 tools, and /tools says which are loaded', T, async () => {
    const config = join(dir, 'many.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { many: { command: process.execPath, args: [fake('mcp-many-tools'), '1000'] } } }));
    const env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: api.url };
    const reachedAt: number[] = [];
    api.setScript(seeker('many__tool_999', 'tool 999', reachedAt));
    api.requests.length = 0;
    const run = await runCli(['--workspace', dir, '--yes', '--mcp-config', config, 'Run the last tool of the many server.'], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /result: tool_999/);
    assert.deepEqual(reachedAt, [2]);
    const listed = await runCli(['--workspace', dir, '--mcp-config', config], env, '/tools\nexit\n');
    assert.match(listed.stdout, /1,020 tools from 5 servers: 9 loaded, the rest found by search/);
    assert.match(listed.stdout, /many__tool_0 {2}\[found by search\] {2}Tool number 0: list invoices in the billing service/);
    assert.match(listed.stdout, /workspace__read_file {2}\[loaded\]/);
  });
});
