// A message sent while the servers are still starting (the window just opened) waits for them, saying so,
// and its turn sees their tools: the model's first call reaches the workspace server instead of an
// "unknown tool". A stopped turn does not wait on. A Sessions command and /tools wait likewise.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { McpHub } from '../../src/core/mcp/hub/hub';
import { bundledServerConfigs } from '../../src/core/mcp/hub/bundled-servers';
import { modelToolHost } from '../../src/core/tool-offer/tool-choices';
import { OrchestratorClient } from '../../src/core/sessions/orchestrator-client';
import { runSlash } from '../../src/core/chat/slash-commands';
import type { AgentOutput } from '../../src/core/agent/types';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { openTestChat, testTurn } from '../support/test-chat';
import { repoRoot } from './mcp-support';
import { scaled } from '../support/until';

const T = { timeout: scaled(60_000) };

function model(body: MessagesBody): Reply {
  if (isToolResultTurn(body)) return { text: `listed: ${lastUserText(body).slice(0, 200)}` };
  return { toolUses: [{ name: 'workspace__list_directory', input: { path: '.' } }] };
}

describe('a turn sent while the servers start', () => {
  const api = new FakeAnthropicApi(model);
  let dir: string;
  let client: Anthropic;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'servers-starting-'));
    writeFileSync(join(dir, 'marker.txt'), 'x');
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
  });
  after(async () => {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const startHub = (name = 'workspace'): McpHub => {
    const hub = new McpHub(bundledServerConfigs(join(repoRoot(), 'dist'), dir, { ANTHROPIC_API_KEY: 'sk-test' }).filter((c) => c.name === name));
    hub.start();
    return hub;
  };

  test('waits for them, saying which, and the first call reaches the server', T, async () => {
    const hub = startHub();
    try {
      assert.equal(hub.status('workspace')?.state, 'starting', 'the precondition: the server is still starting');
      const { session, events } = openTestChat(modelToolHost(hub), dir);
      const transient: AgentOutput[] = [];
      session.on('transient', (o) => transient.push(o));
      const status = await session.send('what is here?', [], testTurn(client));
      await session.flush();
      assert.equal(status, 'done');
      const waited = transient.find((o) => o.type === 'activity' && o.activity.kind === 'servers');
      assert.deepEqual(waited?.type === 'activity' && waited.activity, { kind: 'servers', starting: ['workspace'] });
      const result = events.find((e) => e.kind === 'tool_result');
      assert.ok(result?.kind === 'tool_result' && !result.isError, JSON.stringify(result));
      assert.match(JSON.stringify(result.content), /marker\.txt/);
      const first = api.requests.at(-2)!.body;
      assert.ok(
        first.tools?.some((t) => t.name === 'workspace__list_directory'),
        'the first request already offered the server’s tools',
      );
    } finally {
      await hub.dispose();
    }
  });

  test('a turn stopped while it waits ends at once, having asked the model nothing', T, async () => {
    const hub = startHub();
    try {
      const { session } = openTestChat(modelToolHost(hub), dir);
      const asked = api.requests.length;
      session.on('transient', (o) => o.type === 'activity' && o.activity.kind === 'servers' && session.stop());
      const status = await session.send('what is here?', [], testTurn(client));
      await session.flush();
      assert.equal(status, 'stopped');
      assert.equal(api.requests.length, asked);
    } finally {
      await hub.dispose();
    }
  });

  test('a Sessions command run while the orchestrator starts waits for it and gets its agents', T, async () => {
    const hub = startHub('orchestrator');
    try {
      assert.equal(hub.status('orchestrator')?.state, 'starting', 'the precondition: the server is still starting');
      const { agents } = await new OrchestratorClient(hub).agents();
      assert.ok(
        agents.some((a) => a.name === 'general'),
        JSON.stringify(agents),
      );
    } finally {
      await hub.dispose();
    }
  });

  test('/tools typed while a server starts lists its tools once it is up', T, async () => {
    const hub = startHub();
    try {
      assert.equal(hub.status('workspace')?.state, 'starting', 'the precondition: the server is still starting');
      const said: string[] = [];
      const host = modelToolHost(hub);
      await runSlash('/tools', {
        hub,
        tools: { host },
        say: (lines) => said.push(...lines),
        model: async () => undefined,
        clear: async () => undefined,
        resource: async () => undefined,
        prompt: async () => undefined,
      });
      assert.ok(
        said.some((l) => /workspace__read_file/.test(l)),
        said.join('\n'),
      );
    } finally {
      await hub.dispose();
    }
  });
});
