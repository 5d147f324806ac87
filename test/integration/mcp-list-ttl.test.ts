// Lists kept as long as the server says (`ttlMs`, 2026-07-28): a server that tells of no list changes is listed
// again once its list is asked for past that time, against a real server on the v2 SDK (test/fakes/mcp-modern.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { McpHub } from '../../src/core/mcp/hub/hub';
import { scaled, until } from '../support/until';
import { fakeConfig, textOf, withHub } from './mcp-support';

const T = { timeout: scaled(60_000) };

/** Resolves once `hub.tools()` names `tool`: each ask past the ttl lists again, and a 'change' says one came. */
async function untilOffered(hub: McpHub, tool: string): Promise<void> {
  const names = (): string[] => hub.tools().map((t) => t.tool.name);
  await until(() => names().includes(tool), { what: `the hub to offer ${tool}`, wake: (check) => hub.on('change', check), seen: names });
}

test('a list the server said may be kept 0 ms is listed again when asked for: a tool added without list_changed reaches the model', T, async () => {
  const config = fakeConfig('quiet', 'mcp-modern', '--modern-only', '--quiet-lists', '--ttl=0');
  await withHub([config], {}, async (hub) => {
    await hub.settled();
    assert.ok(!hub.tools().some((t) => t.tool.name === 'late_tool'));
    assert.match(textOf(await hub.callTool('quiet__add_tool', { name: 'late_tool' })), /added late_tool/);
    await untilOffered(hub, 'late_tool');
    assert.equal(textOf(await hub.callTool('quiet__late_tool', {})), 'late_tool');
  });
});

test('a list the server said may be kept an hour is not listed again before then', T, async () => {
  const config = fakeConfig('quiet', 'mcp-modern', '--modern-only', '--quiet-lists', '--ttl=3600000');
  await withHub([config], {}, async (hub) => {
    await hub.settled();
    await hub.callTool('quiet__add_tool', { name: 'late_tool' });
    // Asked for many times: the list is fresh, so nothing is listed again. (Not counted by 'change' events: the
    // hub's debounced one from the start may still come, as a loaded CI run saw.)
    for (let i = 0; i < 20; i++) hub.tools();
    // A round trip to the same server after those asks: a listing they started would have answered first.
    await hub.callTool('quiet__echo', { text: 'after' });
    assert.ok(!hub.tools().some((t) => t.tool.name === 'late_tool'), 'the list was not fetched again');
  });
});
