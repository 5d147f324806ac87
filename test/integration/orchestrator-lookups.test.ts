// A sub-agent's call looks its tool up once, through the real hubs it sees (the orchestrator's tool view): before,
// the view looked a name up again in findTool and once more in callTool, and the connection scanned its list.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { Agent } from '../../src/core/agent/agent';
import { McpHub } from '../../src/core/mcp/hub/hub';
import type { HubTool } from '../../src/core/mcp/types';
import { toolView } from '../../servers/orchestrator/tool-view';
import { parseAllowList } from '../../servers/orchestrator/tool-allowlist';
import { memoryStore } from '../fakes/tool-host';
import { FakeAnthropicApi } from '../fakes/anthropic-api';
import { fakeConfig } from './mcp-support';

const T = { timeout: 60_000 };

describe("a sub-agent's tool calls through the orchestrator's view of its hubs", () => {
  const api = new FakeAnthropicApi();
  let client: Anthropic;
  const hubs: McpHub[] = [];
  before(async () => {
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
  });
  after(async () => {
    await api.stop();
    await Promise.all(hubs.map((h) => h.dispose()));
  });

  test('each call looks its tool up once in the hubs, and the hub is handed the tool itself', T, async () => {
    // Two hubs, as a definition's own servers make: the tool is on the second, so a lookup that walks them is seen too.
    const shared = new McpHub([fakeConfig('workspace', 'mcp-echo')], { connection: { closeGraceMs: 200 } });
    const own = new McpHub([fakeConfig('mine', 'mcp-echo')], { connection: { closeGraceMs: 200 } });
    hubs.push(shared, own);
    for (const hub of hubs) hub.start();
    await Promise.all(hubs.map((h) => h.settled()));
    const lookups: string[] = [];
    const targets: Array<string | HubTool> = [];
    for (const hub of hubs) {
      // The real hub, watched: each lookup by name, and what each call is given.
      const findTool = hub.findTool.bind(hub);
      const callTool = hub.callTool.bind(hub);
      hub.findTool = (name) => {
        const tool = findTool(name);
        if (tool) lookups.push(name);
        return tool;
      };
      hub.callTool = (target, args, opts) => (targets.push(target), callTool(target, args, opts));
    }
    const agent = new Agent({
      client,
      host: toolView(hubs, parseAllowList(undefined, undefined, ['mine'])),
      model: 'claude-test',
      workspaceName: 'ws',
      approvals: memoryStore(),
      askApproval: async () => 'once',
    });
    api.setScript([
      {
        toolUses: [
          { name: 'mine__echo', input: { text: 'one' }, id: 'toolu_1' },
          { name: 'mine__echo', input: { text: 'two' }, id: 'toolu_2' },
        ],
      },
      { text: 'done' },
    ]);
    const status = await agent.runTurn({ text: 'go' }, () => undefined, new AbortController().signal);
    assert.equal(status, 'done');
    const results = JSON.stringify(api.requests.at(-1)!.body.messages.at(-1)!.content);
    assert.match(results, /one/);
    assert.match(results, /two/);
    assert.deepEqual(lookups, ['mine__echo', 'mine__echo']);
    assert.equal(targets.length, 2);
    assert.ok(targets.every((t) => typeof t !== 'string'));
  });
});
