// The calls of one reply run in the model's order against real servers: a read written after a write sees
// what was written (the bundled workspace server; the official server-memory's knowledge graph), through the
// real agent loop, the real Anthropic SDK against the fake Messages API, and McpHub.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { Agent } from '../../src/core/agent/agent';
import type { AgentOutput } from '../../src/core/agent/types';
import { bundledServerConfigs } from '../../src/core/mcp/hub/bundled-servers';
import { McpHub } from '../../src/core/mcp/hub/hub';
import type { ServerConfig } from '../../src/core/mcp/types';
import { FakeAnthropicApi, type MessagesBody, type ToolUseStep } from '../fakes/anthropic-api';
import { memoryStore } from '../fakes/tool-host';
import { outsideServer } from '../support/outside-servers';
import { repoRoot } from '../support/repo-root';
import { scaled } from '../support/until';

const T = { timeout: scaled(90_000) };

/** The text of each tool_result of the request's last message, in order. */
function resultTexts(body: MessagesBody): string[] {
  const last = body.messages.at(-1)!;
  return (typeof last.content === 'string' ? [] : last.content)
    .filter((b) => b.type === 'tool_result')
    .map((b) => {
      const c = b.content as string | Array<{ type: string; text?: string }>;
      return typeof c === 'string' ? c : c.map((x) => x.text ?? '').join('');
    });
}

describe('a reply that writes and then reads, against real servers', () => {
  const api = new FakeAnthropicApi();
  let client: Anthropic;
  let dir: string;
  before(async () => {
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'call-order-')));
  });
  after(async () => {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One turn whose single reply makes `uses`; every question answered "once". What each call returned, in order. */
  async function oneReply(configs: ServerConfig[], uses: ToolUseStep[]): Promise<string[]> {
    const hub = new McpHub(configs, { connection: { roots: [dir] } });
    hub.start();
    try {
      await hub.settled();
      for (const c of configs) assert.equal(hub.status(c.name)?.state, 'ready', `${c.name}: ${hub.status(c.name)?.error} ${hub.stderr(c.name, 2000)}`);
      const agent = new Agent({
        client,
        host: hub,
        model: 'claude-test',
        workspaceName: 'ws',
        workspaceDir: dir,
        approvals: memoryStore(),
        askApproval: async () => 'once',
      });
      api.setScript([{ toolUses: uses }, { text: 'done' }]);
      const out: AgentOutput[] = [];
      const status = await agent.runTurn({ text: 'go' }, (o) => out.push(o), new AbortController().signal);
      assert.equal(status, 'done');
      return resultTexts(api.requests.at(-1)!.body);
    } finally {
      await hub.dispose();
    }
  }

  test('workspace: read_file after write_file in one reply reads what was written', T, async () => {
    const workspace = bundledServerConfigs(join(repoRoot(), 'dist'), dir, {}).filter((c) => c.name === 'workspace');
    const [written, read] = await oneReply(workspace, [
      { name: 'workspace__write_file', input: { path: 'notes.txt', content: 'remember the milk\n' } },
      { name: 'workspace__read_file', input: { path: 'notes.txt' } },
    ]);
    assert.doesNotMatch(written!, /error|denied/i, written);
    assert.match(read!, /remember the milk/, read);
    assert.equal(readFileSync(join(dir, 'notes.txt'), 'utf8'), 'remember the milk\n');
  });

  test('server-memory: read_graph after create_entities in one reply sees the entity', T, async () => {
    const memory: ServerConfig = {
      name: 'memory',
      transport: 'stdio',
      command: process.execPath,
      args: [outsideServer('server-memory')],
      env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
    };
    const [created, graph] = await oneReply(
      [memory],
      [
        { name: 'memory__create_entities', input: { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] } },
        { name: 'memory__read_graph', input: {} },
      ],
    );
    assert.match(created!, /Ada/, created);
    assert.match(graph!, /"name": ?"Ada"/, graph);
    assert.match(graph!, /wrote the first program/, graph);
  });
});
