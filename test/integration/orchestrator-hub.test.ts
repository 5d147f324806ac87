import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledServerConfigs } from '../../src/core/mcp/hub/bundled-servers';
import { McpHub } from '../../src/core/mcp/hub/hub';
import { FakeAnthropicApi, isToolResultTurn } from '../fakes/anthropic-api';
import { repoRoot, textOf } from './mcp-support';
import { sessionPath } from './orchestrator-harness';

// The orchestrator as the extension and the CLI start it: one of the bundled servers, its share of the
// host's environment carrying the key, called through our own hub with progress.
test('our hub starts the orchestrator with the key and sees a sub-agent work through progress', async (t) => {
  const workspace = mkdtempSync(join(tmpdir(), 'orch-hub-'));
  const home = mkdtempSync(join(tmpdir(), 'orch-hub-home-'));
  const api = new FakeAnthropicApi((body) =>
    isToolResultTurn(body) ? { text: 'Listed the folder.' } : { text: '', toolUses: [{ name: 'workspace__list_directory', input: { path: '.' } }] },
  );
  await api.start();
  let hub: McpHub | undefined;
  t.after(async () => {
    await hub?.dispose();
    await api.stop();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });
  const source = { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-hub', ANTHROPIC_BASE_URL: api.url, MCP_AGENT_HOME: home };
  const configs = bundledServerConfigs(join(repoRoot(), 'dist'), workspace, source).filter((c) => c.name === 'orchestrator');
  assert.equal(configs.length, 1, 'the orchestrator bundle is one of the bundled servers');
  hub = new McpHub(configs, { connection: { roots: [workspace] } });
  hub.start();
  await hub.settled();
  const status = hub.status('orchestrator');
  assert.equal(status?.state, 'ready', status?.error);
  assert.deepEqual(
    hub
      .tools()
      .map((x) => x.qualifiedName)
      .sort(),
    ['clean_sessions', 'get_session', 'list_agents', 'list_sessions', 'query', 'resume_agent', 'start_agent'].map((n) => `orchestrator__${n}`),
  );
  const progress: string[] = [];
  const r = await hub.callTool(
    'orchestrator__start_agent',
    { session_name: 'from-hub', prompt: 'List the workspace' },
    { onProgress: (_p, _t, message) => progress.push(message ?? '') },
  );
  assert.ok(!r.isError, textOf(r));
  assert.match(textOf(r), /Listed the folder\./);
  assert.deepEqual(
    progress.filter((m) => !/\(\d+ s\)$/.test(m)),
    ['from-hub: model call 1', 'from-hub: calling workspace__list_directory', progress.find((m) => /tool call done/.test(m)), 'from-hub: model call 2'],
  );
  // This SDK version sends the key as a bearer token; older ones as x-api-key.
  const headers = api.requests[0]?.headers;
  assert.equal(
    headers?.['x-api-key'] ?? headers?.authorization?.replace(/^Bearer /, ''),
    'sk-ant-hub',
    'the key reached the orchestrator through its env share',
  );
  assert.ok(existsSync(sessionPath(home, workspace, 'from-hub', 'session.json')), 'kept beside the chats, in the MCP_AGENT_HOME the host passed on');
});
