// The bundled servers as clients of the host see them: they declare logging and log through it, and the
// research server declares resource subscriptions and says when a topic's papers change. Real processes, in the
// era the host negotiates with them (2026-07-28).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bundledServerConfigs } from '../../src/core/mcp/hub/bundled-servers';
import type { SinkLevel } from '../../src/core/mcp/client/client-handlers';
import { McpHub } from '../../src/core/mcp/hub/hub';
import { startUpstreams, type Upstreams } from '../fakes/upstreams';
import { repoRoot } from './mcp-support';
import { scaled } from '../support/until';

const T = { timeout: scaled(60_000) };

describe('bundled servers and the client half', () => {
  let up: Upstreams;
  let ws: string;
  let hub: McpHub;
  const logs: Array<{ server: string; level: SinkLevel; text: string }> = [];
  const logged = (server: string, re: RegExp): Promise<void> =>
    new Promise((resolve) => {
      const check = (): void => (logs.some((l) => l.server === server && re.test(l.text)) ? resolve() : void setImmediate(check));
      check();
    });

  before(async () => {
    up = await startUpstreams();
    ws = mkdtempSync(join(tmpdir(), 'client-bundled-'));
    const configs = bundledServerConfigs(join(repoRoot(), 'dist'), ws, { ARXIV_API_URL: `${up.origin}/arxiv/query` }).filter((c) => c.name !== 'orchestrator');
    hub = new McpHub(configs, {
      connection: { handlers: { logging: { sink: (server) => ({ log: (level, text) => void logs.push({ server, level, text }) }), level: 'info' } } },
      changeDebounceMs: 5,
    });
    hub.start();
    await hub.settled();
  });
  after(async () => {
    await hub?.dispose();
    await up?.close();
    rmSync(ws, { recursive: true, force: true });
  });

  test('each bundled server is reached in 2026-07-28 and says what it serves in its own log', T, async () => {
    for (const name of ['workspace', 'web', 'research']) {
      assert.equal(hub.status(name)?.state, 'ready', hub.status(name)?.error);
      assert.equal(hub.status(name)?.era, 'modern');
      // That era has no session to log on outside a request: the server says it on stderr, which the host logs too.
      await logged(name, new RegExp(`^\\[stderr\\] ${name}: serving `));
    }
  });

  test("the research server notifies subscribers when a topic's papers change, and logs the search", T, async () => {
    await hub.callTool('research__search_papers', { topic: 'folders', max_results: 2 });
    const topic = 'papers://topics/folders';
    await hub.subscribeResource('research', topic);
    await hub.subscribeResource('research', 'papers://folders');
    const seen: string[] = [];
    const second = new Promise<void>((resolve) =>
      hub.on('resourceUpdated', (server, uri) => {
        seen.push(`${server} ${uri}`);
        if (uri === topic) resolve();
      }),
    );
    const r = await hub.callTool('research__search_papers', { topic: 'folders', max_results: 3 });
    assert.equal(r.isError, undefined);
    await second;
    assert.deepEqual(seen, [`research ${topic}`], 'the index did not change (no new topic), so only the topic is updated');
    await logged('research', /^\[research\] saved \d+ papers? on "folders"/);
    const index = await hub.readResource('research', 'papers://folders');
    assert.match(JSON.stringify(index.contents), /Research topics/, 'a topic named "folders" does not take the index');
  });
});
