import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatHistory } from '../../src/core/chat/chat-history';
import { chatsDir } from '../../src/core/chat/chat-home';
import { newChatId, newMeta } from '../../src/core/chat/chat-meta';
import { ChatSession, type TurnConfig } from '../../src/core/chat/chat-session';
import { importLegacyChat } from '../../src/core/chat/legacy-import';
import type { ChatEvent } from '../../src/common/protocol';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, systemText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { host, memoryStore } from '../fakes/tool-host';
import { cli } from './helpers/cli-process';

/** Answers with the conversation's user texts, so a test can see what history reached the model. */
function echoHistory(body: MessagesBody): Reply {
  if (lastUserText(body).includes('hang')) return { hang: true };
  if (lastUserText(body).includes('use the tool') && !isToolResultTurn(body)) return { toolUses: [{ name: 'ws__look', input: { what: 'it' } }] };
  const said = body.messages
    .filter((m) => m.role === 'user' && !isToolResultTurn({ ...body, messages: [m] }))
    .map((m) => lastUserText({ ...body, messages: [m] }));
  return { text: `I have heard: ${said.join(' | ')}` };
}

describe('chat sessions and their history', () => {
  const api = new FakeAnthropicApi(echoHistory);
  let dir: string;
  let config: TurnConfig;
  const tools = host({ ws__look: { readOnly: true, run: async () => ({ content: [{ type: 'text', text: 'looked' }] }) } });
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chats-'));
    config = {
      client: new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 }),
      model: 'claude-sonnet-5-5',
      maxTokens: 1024,
      maxIterations: 5,
      toolTimeoutMs: 10_000,
      keyHint: 'set a key',
    };
  });
  after(async () => {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (history: ChatHistory, meta = newMeta(newChatId(), 'claude-sonnet-5-5')) =>
    new ChatSession({ meta, store: history.store(meta.id), host: tools, workspace: undefined, approvals: memoryStore() });

  test('a chat is kept with a title from its first message, its model and its token totals; reopened, it goes on', async () => {
    const history = new ChatHistory(join(dir, 'a'));
    const chat = open(history);
    assert.deepEqual(await history.list(), [], 'an empty chat is not in the list');
    await chat.send('Plan the garden\nwith details', [], config);
    await chat.send('use the tool please', [], config);
    await chat.flush();
    const [meta] = await history.list();
    assert.equal(meta?.title, 'Plan the garden');
    assert.equal(meta?.model, 'claude-sonnet-5-5');
    const ends = chat.events.filter((e): e is Extract<ChatEvent, { kind: 'turn_end' }> => e.kind === 'turn_end');
    assert.equal(
      meta?.usage.output,
      ends.reduce((n, e) => n + (e.usage?.output ?? 0), 0),
      'the total is the sum of the turns',
    );
    assert.ok((meta?.usage.costUsd ?? 0) > 0);

    const again = open(history, (await history.get(meta!.id))!);
    await again.load();
    assert.equal(again.events.length, chat.events.length, 'the events come back');
    await again.send('third', [], config);
    assert.match(JSON.stringify(again.events.at(-2)), /I have heard: Plan the garden\\nwith details \| use the tool please \| third/);
    const firstSystem = systemText(api.requests[0]!.body);
    assert.equal(systemText(api.requests.at(-1)!.body), firstSystem, 'the reopened chat keeps the system prompt it started with');
  });

  test('rename, search, export as Markdown, delete', async () => {
    const history = new ChatHistory(join(dir, 'b'));
    const one = open(history);
    await one.send('Fix the parser', [], config);
    await one.send('use the tool now', [], config);
    const two = open(history);
    await two.send('Write release notes', [], config);
    await Promise.all([one.flush(), two.flush()]);
    assert.deepEqual(
      (await history.list()).map((m) => m.title),
      ['Write release notes', 'Fix the parser'],
      'newest first',
    );
    one.rename('  Parser   bug ');
    await one.flush();
    await one.send('more', [], config);
    await one.flush();
    assert.equal((await history.get(one.id))?.title, 'Parser bug', 'a later message does not take the chosen title back');
    assert.deepEqual(
      (await history.search('PARSER')).map((m) => m.id),
      [one.id],
    );
    assert.deepEqual(
      (await history.search('notes release')).map((m) => m.id),
      [two.id],
    );
    const md = await history.exportMarkdown(one.id);
    assert.match(md, /^# Parser bug\n/);
    assert.match(md, /## You\n\nFix the parser/);
    assert.match(md, /<summary>✓ ws__look<\/summary>/);
    assert.match(md, /```json\n\{\n {2}"what": "it"\n\}\n```/);
    await history.delete(two.id);
    assert.deepEqual(
      (await history.list()).map((m) => m.id),
      [one.id],
    );
    await assert.rejects(history.delete('../b'), /not a chat id/);
  });

  test('a turn still unwinding after Stop writes only into its own chat', async () => {
    const history = new ChatHistory(join(dir, 'c'));
    const first = open(history);
    const running = first.send('please hang', [], config);
    await api.waitForRequests(api.requests.length + 1);
    const second = open(history);
    const seen: ChatEvent[] = [];
    second.on('event', (e) => seen.push(e));
    first.stop();
    await running;
    await Promise.all([first.flush(), second.flush()]);
    assert.equal(first.events.at(-1)?.kind, 'turn_end');
    assert.deepEqual(seen, []);
    assert.deepEqual(second.events, []);
    assert.deepEqual(readdirSync(join(dir, 'c')), [first.id], 'nothing was written for the new chat');
  });

  test('the one chat older versions kept joins the history once', async () => {
    const old = join(dir, 'old-storage', 'chats', 'current');
    mkdirSync(old, { recursive: true });
    writeFileSync(join(old, 'events.jsonl'), `${JSON.stringify({ kind: 'user', id: 'u1', text: 'An old question', attachments: [], at: 1 })}\n`);
    writeFileSync(join(old, 'messages.jsonl'), `${JSON.stringify({ role: 'user', content: 'An old question' })}\n`);
    const history = new ChatHistory(join(dir, 'd'));
    const id = await importLegacyChat(old, history, 'claude-sonnet-5-5');
    assert.ok(id);
    assert.equal(await importLegacyChat(old, history, 'claude-sonnet-5-5'), undefined, 'nothing left to import');
    const chat = open(history, (await history.get(id))!);
    await chat.load();
    assert.equal((await history.get(id))?.title, 'An old question');
    assert.equal(chat.messages.length, 1);
  });
});

describe('the CLI goes on with saved chats (--continue, --resume)', () => {
  const api = new FakeAnthropicApi(echoHistory);
  let env: Record<string, string>;
  let ws: string;
  let home: string;
  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'cli-home-'));
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: await api.start(), MCP_AGENT_HOME: home };
    ws = mkdtempSync(join(tmpdir(), 'cli-ws-'));
  });
  after(async () => {
    await api.stop();
    rmSync(ws, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  test('each run is saved; --continue takes the latest, --resume <id> a named one; tokens are printed after each turn', async () => {
    const first = await cli(['--workspace', ws, 'the number is 42'], env);
    assert.equal(first.code, 0, first.stderr);
    const id = /chat ([a-z0-9]+) saved; go on with --resume \1/.exec(first.stderr)?.[1];
    assert.ok(id, first.stderr);
    assert.match(first.stderr, /this turn: [\d.]+k? in(?: \([^)]*cache\))? · \d+ out · \$0\.\d+ · chat: [\d.]+k? tokens · \$0\.\d+\n/);
    const other = await cli(['--workspace', ws, 'a different chat'], env);
    assert.equal(other.code, 0, other.stderr);

    const resumed = await cli(['--workspace', ws, '--resume', id, 'what was the number?'], env);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stdout, /continuing "the number is 42"/);
    assert.match(resumed.stdout, /I have heard: the number is 42 \| what was the number\?/);

    const continued = await cli(['--workspace', ws, '--continue', 'and now?'], env);
    assert.match(continued.stdout, /I have heard: the number is 42 \| what was the number\? \| and now\?/, 'the resumed chat is now the latest');
    const saved = JSON.parse(readFileSync(join(chatsDir(ws, { MCP_AGENT_HOME: home }), id, 'meta.json'), 'utf8')) as { usage: { output: number } };
    assert.ok(saved.usage.output > 0);
  });

  test('a chat that is not there, or both flags, is a clear error and exit 2', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'cli-empty-'));
    try {
      const none = await cli(['--workspace', empty, '--continue', 'hi'], env);
      assert.equal(none.code, 2);
      assert.match(none.stderr, /no earlier chat in this workspace/);
      const unknown = await cli(['--workspace', ws, '--resume', 'abcd1234', 'hi'], env);
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /no chat abcd1234 in this workspace/);
      const hostile = await cli(['--workspace', ws, '--resume', '../../etc', 'hi'], env);
      assert.equal(hostile.code, 2);
      assert.match(hostile.stderr, /--resume needs a chat id/);
      const both = await cli(['--workspace', ws, '--continue', '--resume', 'abcd1234', 'hi'], env);
      assert.equal(both.code, 2);
      assert.match(both.stderr, /not both/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
