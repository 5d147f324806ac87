import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, systemText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { agentFile, sessionPath, sessions, startOrchestrator, textOf, writeFiles, type Orchestrator } from './orchestrator-harness';

/** Sub-agent sessions through the real orchestrator, its real workspace server and the fake Messages API. */

describe('orchestrator sessions', () => {
  let api: FakeAnthropicApi;
  let workspace: string;
  /** MCP_AGENT_HOME: the sessions are kept there. */
  let home: string;
  let orch: Orchestrator;
  /** What the fake model does with each request, set by each test. */
  let reply: (body: MessagesBody) => Reply = () => ({ text: 'nothing scripted' });
  /** The questions the person was asked. */
  const asked: string[] = [];

  before(async () => {
    api = new FakeAnthropicApi((body) => reply(body));
    await api.start();
    workspace = mkdtempSync(join(tmpdir(), 'orch-sessions-'));
    home = mkdtempSync(join(tmpdir(), 'orch-sessions-home-'));
    writeFiles(workspace, {
      '.mcp-agent/agents/writer.md': agentFile(
        { name: 'writer', description: 'Writes files', tools: 'workspace__write_file, workspace__read_file', model: 'haiku' },
        'You write the files you are asked for.',
      ),
    });
    // A client that can ask the person, and says yes: a definition's tools offer, they do not approve.
    orch = await startOrchestrator(workspace, {
      env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: api.url, MCP_AGENT_HOME: home },
      elicit: (params) => {
        asked.push(params.message);
        return { action: 'accept', content: { decision: 'once' } };
      },
    });
  });

  after(async () => {
    await orch?.close();
    await api?.stop();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  test('a sub-agent writes a file through the workspace server; the session is saved', async () => {
    reply = (body) =>
      isToolResultTurn(body)
        ? { text: 'Wrote out/hello.txt.' }
        : { text: 'Writing.', toolUses: [{ name: 'workspace__write_file', input: { path: 'out/hello.txt', content: 'hello from a sub-agent\n' } }] };
    const progress: string[] = [];
    const before = api.requests.length;
    // Two tools and a short system prompt are under the API's smallest cacheable prefix; this one caches any.
    api.cache.minTokens = 1;
    const r = await orch.call(
      'start_agent',
      { session_name: 'first', agent_name: 'writer', prompt: 'Write out/hello.txt' },
      { onprogress: (p) => progress.push(p.message ?? '') },
    );
    assert.ok(!r.isError, textOf(r));
    assert.match(textOf(r), /Wrote out\/hello\.txt\./);
    assert.match(textOf(r), /Session first \(writer\): done/);
    assert.equal(readFileSync(join(workspace, 'out', 'hello.txt'), 'utf8'), 'hello from a sub-agent\n');
    assert.equal(asked.length, 1, 'the write was asked, though the definition names the tool');
    assert.match(asked[0]!, /Sub-agent "writer" asks: Write out\/hello\.txt/);

    const first = api.requests[before]!.body;
    assert.equal(first.model, 'claude-haiku-5-5', 'the alias in the definition picks the model');
    assert.deepEqual(
      first.tools?.map((t) => t.name).sort(),
      ['workspace__read_file', 'workspace__write_file'],
      'only the tools the definition names, no orchestrator tool',
    );
    assert.match(
      systemText(first),
      /You are the sub-agent "writer": Writes files\n\nYou write the files you are asked for\./,
      'the definition is the system prompt',
    );
    assert.doesNotMatch(JSON.stringify(first.messages), /You write the files/, 'and not a message of the conversation');
    const second = api.requests[before + 1]!;
    assert.equal(systemText(second.body), systemText(first), 'the same system prompt on every call');
    assert.ok((second.billed?.cache_read_input_tokens ?? 0) > 0, 'so the second call reads it from the prompt cache');
    assert.ok(
      progress.some((m) => /model call 1/.test(m)),
      progress.join('\n'),
    );
    assert.ok(
      progress.some((m) => /calling workspace__write_file/.test(m)),
      progress.join('\n'),
    );

    const saved = JSON.parse(readFileSync(sessionPath(home, workspace, 'first', 'session.json'), 'utf8'));
    assert.equal(saved.status, 'done');
    assert.equal(saved.agent, 'writer');
    assert.equal(saved.turns, 1);
    // What the fake's prompt cache billed for the two model calls, input however billed.
    const billed = api.requests
      .slice(before)
      .reduce((n, r) => n + (r.billed ? r.billed.input_tokens + r.billed.cache_read_input_tokens + r.billed.cache_creation_input_tokens : 0), 0);
    assert.equal(saved.usage.input + saved.usage.cacheRead + saved.usage.cacheWrite, billed);
    assert.ok(saved.usage.output > 0);
    assert.ok(saved.system?.text, 'the system prompt is kept for the next turns');
    const lines = readFileSync(sessionPath(home, workspace, 'first', 'messages.jsonl'), 'utf8')
      .trim()
      .split('\n');
    assert.equal(lines.length, 4, 'prompt, tool call, tool result, reply');
  });

  test('resume_agent continues with the whole history', async () => {
    reply = () => ({ text: 'Still here.' });
    const before = api.requests.length;
    const tokensBefore = (await sessions(orch)).find((x) => x.name === 'first')?.tokens ?? 0;
    const r = await orch.call('resume_agent', { session_name: 'first', prompt: 'What did you write?' });
    assert.ok(!r.isError, textOf(r));
    const body = api.requests[before]!.body;
    const all = JSON.stringify(body.messages);
    assert.match(all, /Write out\/hello\.txt/);
    assert.match(all, /Wrote out\/hello\.txt\./);
    assert.match(lastUserText(body), /What did you write\?/);
    const [s] = (await sessions(orch)).filter((x) => x.name === 'first');
    assert.equal(s?.turns, 2);
    assert.ok((s?.tokens ?? 0) > tokensBefore, 'the turn adds its tokens');
    const saved = JSON.parse(readFileSync(sessionPath(home, workspace, 'first', 'session.json'), 'utf8'));
    assert.equal(systemText(body), saved.system.text, 'the resumed turn sends the system prompt the session began with');
  });

  test('get_session gives the transcript; the resources list and show sessions', async () => {
    const r = await orch.call('get_session', { session_name: 'first' });
    assert.match(textOf(r), /# Session first/);
    assert.match(textOf(r), /\*\*Tool call\*\* `workspace__write_file`/);
    const list = await orch.client.readResource({ uri: 'sessions://list' });
    assert.match(String((list.contents[0] as { text: string }).text), /\| first \| writer \| done \| 2 \|/);
    const one = await orch.client.readResource({ uri: 'sessions://first' });
    assert.match(String((one.contents[0] as { text: string }).text), /Still here\./);
    const { resources } = await orch.client.listResources();
    assert.ok(
      resources.some((x) => x.uri === 'sessions://first'),
      JSON.stringify(resources),
    );
  });

  test('a new session sends list_changed; a subscribed transcript gets updated', async () => {
    reply = () => ({ text: 'ok' });
    await orch.client.subscribeResource({ uri: 'sessions://list' });
    const listChanged = new Promise<void>((resolve) => orch.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve()));
    const updated = new Promise<string>((resolve) => orch.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)));
    const r = await orch.call('start_agent', { session_name: 'second', prompt: 'hi' });
    assert.ok(!r.isError, textOf(r));
    await listChanged;
    assert.equal(await updated, 'sessions://list');
  });

  test('clean_sessions needs confirm, and deletes by age, by name or all', async () => {
    const refused = await orch.call('clean_sessions', { confirm: false });
    assert.equal(refused.isError, true);
    const none = await orch.call('clean_sessions', { confirm: true, older_than_days: 1 });
    assert.deepEqual((none.structuredContent as { deleted: string[] }).deleted, [], 'every session is younger than a day');
    const listChanged = new Promise<void>((resolve) => orch.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve()));
    const one = await orch.call('clean_sessions', { confirm: true, session_name: 'second' });
    assert.deepEqual((one.structuredContent as { deleted: string[] }).deleted, ['second']);
    assert.equal(textOf(one), 'Deleted 1 session(s): second.');
    assert.equal(existsSync(sessionPath(home, workspace, 'second')), false);
    await listChanged;
    const missing = await orch.call('clean_sessions', { confirm: true, session_name: 'second' });
    assert.equal(missing.isError, true);
    const all = await orch.call('clean_sessions', { confirm: true, response_format: 'json' });
    assert.deepEqual((all.structuredContent as { deleted: string[] }).deleted.sort(), ['first']);
    assert.deepEqual(JSON.parse(textOf(all)), { deleted: ['first'], kept_running: [] }, 'response_format json answers JSON, as every other tool');
    assert.deepEqual(await sessions(orch), []);
    assert.equal((await orch.call('get_session', { session_name: 'first' })).isError, true);
  });

  test('list_agents lists the built-in agent, the definitions and the broken files with why', async () => {
    writeFiles(workspace, {
      '.claude/agents/reviewer.md': agentFile({ name: 'reviewer', description: 'Reviews code', tools: 'Read, Grep, Bash' }),
      '.claude/agents/no-front.md': 'Just a prompt.\n',
      '.claude/agents/bad-yaml.md': '---\nname: [unclosed\n---\nbody\n',
      '.claude/agents/no-description.md': '---\nname: quiet\n---\nbody\n',
      '.mcp-agent/agents/dup.md': agentFile({ name: 'writer', description: 'A second writer' }),
    });
    const r = await orch.call('list_agents', { response_format: 'json' });
    const out = r.structuredContent as {
      agents: Array<{ name: string; tools: string[] | null; warnings: string[] }>;
      broken: Array<{ file: string; why: string }>;
    };
    assert.deepEqual(out.agents.map((a) => a.name).sort(), ['general', 'reviewer', 'writer']);
    const reviewer = out.agents.find((a) => a.name === 'reviewer')!;
    assert.deepEqual(reviewer.tools?.sort(), ['workspace__read_file', 'workspace__search_files'], "Claude Code's names map to ours");
    assert.ok(
      reviewer.warnings.some((w) => /Bash/.test(w)),
      JSON.stringify(reviewer.warnings),
    );
    const why = (file: string): string => out.broken.find((b) => b.file.endsWith(file))?.why ?? '(not listed)';
    assert.match(why('no-front.md'), /no front matter/);
    assert.match(why('bad-yaml.md'), /not valid YAML/);
    assert.match(why('no-description.md'), /description/);
    // dup.md sorts first, so writer.md is the one reported.
    assert.match(why('agents/writer.md'), /"writer" is already taken by \.mcp-agent\/agents\/dup\.md/);
  });
});
