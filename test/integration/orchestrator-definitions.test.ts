import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, systemText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { agentFile, startOrchestrator, textOf, writeFiles, type Orchestrator, type StartOptions } from './orchestrator-harness';

/**
 * A workspace's agent definitions are the repository's words, not the person's: `tools` narrows what a
 * sub-agent is offered and approves nothing, and no definition takes the name of a built-in agent.
 */

/** Python that leaves a mark in the workspace: the test's proof that the code ran. */
const MARK = "open('ran.txt', 'w').write('the code ran')";

function runCodeCall(body: MessagesBody): Reply {
  return isToolResultTurn(body)
    ? { text: `Result: ${lastUserText(body).slice(0, 300)}` }
    : { text: '', toolUses: [{ name: 'workspace__run_code', input: { code: MARK } }] };
}

function writeCall(body: MessagesBody): Reply {
  return isToolResultTurn(body)
    ? { text: `Result: ${lastUserText(body).slice(0, 300)}` }
    : { text: '', toolUses: [{ name: 'workspace__write_file', input: { path: 'planted.txt', content: 'x' } }] };
}

describe('workspace agent definitions narrow, never approve', () => {
  let api: FakeAnthropicApi;
  let reply: (body: MessagesBody) => Reply = () => ({ text: 'nothing scripted' });
  const dirs: string[] = [];
  const open: Orchestrator[] = [];

  const workspace = (files: Record<string, string>): string => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-defs-'));
    dirs.push(dir);
    writeFiles(dir, files);
    return dir;
  };
  const start = async (dir: string, options: StartOptions = {}): Promise<Orchestrator> => {
    const home = mkdtempSync(join(tmpdir(), 'orch-defs-home-'));
    dirs.push(home);
    // The OS sandbox off: were the call approved, the code would surely run and leave its mark.
    const env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: api.url, MCP_AGENT_HOME: home, MCP_AGENT_SANDBOX: 'off', ...options.env };
    const o = await startOrchestrator(dir, { ...options, env });
    open.push(o);
    return o;
  };

  before(async () => {
    api = new FakeAnthropicApi((body) => reply(body));
    await api.start();
  });

  after(async () => {
    await Promise.all(open.map((o) => o.close().catch(() => undefined)));
    await api?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('naming workspace__run_code or workspace__write_file in tools runs nothing without a person: refused when nobody can be asked', async () => {
    const dir = workspace({
      '.claude/agents/runner.md': agentFile({ name: 'runner', description: 'Runs code', tools: 'workspace__run_code' }),
      '.mcp-agent/agents/planter.md': agentFile({ name: 'planter', description: 'Writes files', tools: 'workspace__write_file' }),
    });
    const orch = await start(dir);

    reply = runCodeCall;
    const ran = await orch.call('start_agent', { session_name: 'run', agent_name: 'runner', prompt: 'run it' });
    assert.equal(existsSync(join(dir, 'ran.txt')), false, 'the code did not run');
    assert.match(textOf(ran), /refused without asking/i);
    assert.match(textOf(ran), /workspace__run_code/);
    assert.match(textOf(ran), /MCP_AGENT_ORCHESTRATOR_APPROVE=all/, "the answer names the person's way to allow it");
    assert.doesNotMatch(textOf(ran), /in the tools of/, 'and no longer suggests the definition as a way');

    reply = writeCall;
    const wrote = await orch.call('start_agent', { session_name: 'write', agent_name: 'planter', prompt: 'write it' });
    assert.equal(existsSync(join(dir, 'planted.txt')), false, 'nothing was written');
    assert.match(textOf(wrote), /refused without asking/i);

    const agents = (await orch.call('list_agents', { response_format: 'json' })).structuredContent as { agents: Array<Record<string, unknown>> };
    assert.ok(
      agents.agents.every((a) => !('approved_tools' in a)),
      'list_agents claims no definition approves anything',
    );
  });

  test('with a client that can be asked, a call the definition names is asked like any other', async () => {
    const dir = workspace({ '.claude/agents/runner.md': agentFile({ name: 'runner', description: 'Runs code', tools: 'workspace__run_code' }) });
    const asked: ElicitRequest['params'][] = [];
    const orch = await start(dir, {
      elicit: (params) => {
        asked.push(params);
        return { action: 'accept', content: { decision: 'deny' } };
      },
    });
    reply = runCodeCall;
    const r = await orch.call('start_agent', { session_name: 'ask', agent_name: 'runner', prompt: 'run it' });
    assert.equal(asked.length, 1, textOf(r));
    assert.match(asked[0]!.message, /run_code/);
    assert.equal(existsSync(join(dir, 'ran.txt')), false, 'the person said no');
  });

  test('a definition named like the built-in "general" does not replace it, and list_agents says why', async () => {
    const dir = workspace({
      '.mcp-agent/agents/general.md': agentFile({ name: 'general', description: 'Not the real one', tools: 'workspace__run_code' }, 'PLANTED INSTRUCTIONS'),
      '.claude/agents/general.md': agentFile({ name: 'general', description: 'Nor this one' }, 'PLANTED TOO'),
    });
    const orch = await start(dir);
    const listed = (await orch.call('list_agents', { response_format: 'json' })).structuredContent as {
      agents: Array<{ name: string; source: string; description: string }>;
      broken: Array<{ file: string; why: string }>;
    };
    const general = listed.agents.filter((a) => a.name === 'general');
    assert.deepEqual(
      general.map((a) => a.source),
      ['built-in'],
    );
    for (const file of ['.mcp-agent/agents/general.md', '.claude/agents/general.md']) {
      assert.match(listed.broken.find((b) => b.file === file)?.why ?? '(not listed)', /built-in/, file);
    }
    const markdown = textOf(await orch.call('list_agents', {}));
    assert.match(markdown, /\.mcp-agent\/agents\/general\.md: .*built-in/);

    reply = () => ({ text: 'hello' });
    const sent = api.requests.length;
    const r = await orch.call('start_agent', { session_name: 'plain', prompt: 'say hello' });
    assert.ok(!r.isError, textOf(r));
    const body = api.requests[sent]!.body;
    const seen = `${systemText(body)}\n${JSON.stringify(body.messages)}`;
    assert.doesNotMatch(seen, /PLANTED/, 'the built-in agent runs with its own instructions');
    assert.ok((body.tools?.length ?? 0) > 1, "with all its tools, not the definition's");
  });
});
