// What a server asks the extension (sampling, elicitation), through the real ClientAsks, the real hub
// and a real hostile server process (test/fakes/mcp-asker.ts); the chat page is replaced by a recorder
// that answers cards as a person would, and the model by the fake Messages API over HTTP.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatHistory } from '../../src/core/chat/chat-history';
import { newChatId, newMeta } from '../../src/core/chat/chat-meta';
import { ChatSession } from '../../src/core/chat/chat-session';
import type { McpHub } from '../../src/core/mcp/hub/hub';
import type { AskAnswer } from '../../src/common/protocol';
import { ClientAsks } from '../../src/core/chat/client-asks';
import { FakeAnthropicApi } from '../fakes/anthropic-api';
import { RecordingCards } from '../support/recording-cards';
import { host, memoryStore } from '../fakes/tool-host';
import { fakeConfig, textOf, waitForStatus } from './mcp-support';
import { composeHost } from '../../src/core/host/compose-host';
import type { SamplingBroker } from '../../src/core/sampling/sampling-broker';

type Outcome = { result: Record<string, unknown> } | { error: { code: number; message: string } };

/** The chat page, whose counted tokens join the open chat's totals. */
class RecordingChat extends RecordingCards {
  constructor(
    api: Anthropic,
    readonly session: ChatSession,
  ) {
    super(api, 'claude-sonnet-4-5', (usage) => session.countUsage(usage));
  }
}

function outcomes(result: { content: unknown[] }): Outcome[] {
  return JSON.parse(textOf(result)) as Outcome[];
}

describe('what a hostile server asks the extension', () => {
  const api = new FakeAnthropicApi((body) => ({ text: `answer to ${JSON.stringify(body.messages.at(-1)?.content)}` }));
  let base: string;
  let dir: string;
  before(async () => {
    base = await api.start();
    dir = mkdtempSync(join(tmpdir(), 'asks-'));
  });
  after(async () => {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function withAsker(body: (hub: McpHub, chat: RecordingChat, asks: ClientAsks, sampling: SamplingBroker) => Promise<void>): Promise<void> {
    const history = new ChatHistory(join(dir, newChatId()));
    const meta = newMeta(newChatId(), 'claude-sonnet-4-5');
    const session = new ChatSession({ meta, store: history.store(meta.id), host: host({}), workspace: undefined, approvals: memoryStore() });
    const chat = new RecordingChat(new Anthropic({ apiKey: 'sk-ant-test', baseURL: base, maxRetries: 0 }), session);
    const opened: string[] = [];
    const asks = new ClientAsks({ log: { info: () => undefined, warn: () => undefined }, openExternal: async (url) => opened.push(url) });
    asks.attach(chat);
    // Composed as the extension composes it (compose-host.ts): the chat's cards answer for the person.
    const { hub, sampling } = composeHost({
      configs: [fakeConfig('asker', 'mcp-asker')],
      roots: [],
      asks: asks.asks,
      models: asks.models,
      onSamplingUsage: (s, m, u) => asks.countUsage(s, m, u),
    });
    hub.start();
    // A CI run's test here hung until the suite's timeout with nothing said: what the chat and the server
    // stood at, for the next time.
    const say = setTimeout(() => {
      const s = hub.status('asker');
      console.error(
        `asker test still running after 30 s: server ${s?.state ?? 'absent'}${s?.error ? ` (${s.error})` : ''}; posted: ${chat.posted.map((m) => m.type).join(', ') || 'nothing'}; stderr: ${JSON.stringify(hub.stderr('asker', 1000))}`,
      );
    }, 30_000);
    say.unref();
    try {
      await waitForStatus(hub, 'asker', (s) => s.state === 'ready');
      await body(hub, chat, asks, sampling);
    } finally {
      clearTimeout(say);
      await hub.dispose();
      asks.dispose();
    }
  }

  test('a flood of 20 sampling requests shows two cards; the rest are refused at once, the server stays usable, and the two get the person’s answers', async () => {
    await withAsker(async (hub, chat, asks) => {
      const flood = hub.callTool('asker__flood_sampling', { count: 20 }, { timeoutMs: 60_000 });
      const [first, second] = await chat.cards(2);
      // Still answering while two questions wait.
      assert.equal(textOf(await hub.callTool('asker__echo', { text: 'still here' })), 'still here');
      assert.equal(first!.kind, 'sampling');
      assert.ok(first!.kind === 'sampling' && first!.server === 'asker' && first!.systemPrompt === 'Answer in one word.' && first!.maxTokens === 100);
      asks.answer(first!.askId, { kind: 'sampling', decision: 'once' });
      asks.answer(second!.askId, { kind: 'sampling', decision: 'deny' });
      const results = outcomes(await flood);
      const ok = results.filter((r) => 'result' in r);
      const denied = results.filter((r) => 'error' in r && r.error.code === -1);
      const refused = results.filter((r) => 'error' in r && /too many sampling requests at once: asker may have 2 running/.test(r.error.message));
      assert.equal(ok.length, 1);
      assert.match(JSON.stringify(ok[0]), /answer to/);
      assert.equal(denied.length, 1);
      // The wire message; the server's SDK prefixes it with the code.
      assert.match((denied[0] as { error: { message: string } }).error.message, /^MCP error -1: User rejected sampling request$/);
      assert.equal(refused.length, 18);
      assert.equal(chat.asks().length, 2, 'no card beyond the two');
      assert.deepEqual(await Promise.all([chat.settled(first!.askId), chat.settled(second!.askId)]), ['once', 'deny']);
      assert.equal(chat.usage.length, 1, 'the tokens of the one that ran are counted with the chat');
      assert.ok(chat.usage[0]!.input > 0 && chat.usage[0]!.output > 0);
      await chat.session.flush();
      assert.deepEqual(
        { input: chat.session.info.usage.input, output: chat.session.info.usage.output },
        { input: chat.usage[0]!.input, output: chat.usage[0]!.output },
        'the open chat’s totals include them (the footer shows these)',
      );
    });
  });

  test('elicitations with schemas or URLs the spec does not allow each get an error, and no card is shown', async () => {
    await withAsker(async (hub, chat) => {
      const results = outcomes(await hub.callTool('asker__bad_asks', {}, { timeoutMs: 30_000 }));
      assert.equal(results.length, 7);
      for (const r of results) assert.ok('error' in r, `expected an error, got ${JSON.stringify(r)}`);
      const messages = results.map((r) => ('error' in r ? r.error.message : ''));
      // These two the SDK's own request schema refuses before the host's check (as a -32603 with its zod issues).
      assert.match(messages[0]!, /invalid_union/);
      assert.match(messages[1]!, /invalid_union/);
      for (const r of results.slice(2)) assert.equal('error' in r && r.error.code, -32602);
      assert.match(messages[2]!, /"b" is required but is not a property/);
      assert.match(messages[3]!, /the default of "c" does not fit/);
      assert.match(messages[4]!, /60 fields; a form takes at most 50/);
      assert.match(messages[5]!, /only http and https URLs are opened, not javascript:/);
      assert.match(messages[6]!, /credentials/);
      assert.equal(chat.asks().length, 0);
      assert.equal(textOf(await hub.callTool('asker__echo', { text: 'fine' })), 'fine');
    });
  });

  test('a server may have two forms waiting; a third is refused; an accepted form gets its defaults, a declined one says so', async () => {
    await withAsker(async (hub, chat, asks) => {
      const forms = hub.callTool('asker__ask_forms', { count: 3 }, { timeoutMs: 60_000 });
      const [a, b] = await chat.cards(2);
      await hub.callTool('asker__forms_refused', { count: 1 }, { timeoutMs: 60_000 });
      assert.equal(a!.kind, 'form');
      assert.deepEqual(a!.kind === 'form' && a!.fields.map((f) => [f.name, f.kind, f.required]), [
        ['name', 'text', true],
        ['age', 'number', false],
      ]);
      asks.answer(a!.askId, { kind: 'form', action: 'accept', content: { name: 'Ada' } } satisfies AskAnswer);
      asks.answer(b!.askId, { kind: 'form', action: 'decline' });
      const results = outcomes(await forms);
      const summary = results.map((r) => ('result' in r ? r.result : r.error.message));
      assert.equal(summary.filter((s) => typeof s === 'string' && /too many questions at once: asker already has 2 waiting/.test(s)).length, 1);
      assert.deepEqual(
        summary.filter((s) => typeof s !== 'string'),
        [{ action: 'accept', content: { name: 'Ada', age: 30 } }, { action: 'decline' }],
      );
      assert.equal(chat.asks().length, 2);
    });
  });

  test('a request the server withdraws takes its card back; a late answer to it changes nothing', async () => {
    await withAsker(async (hub, chat, asks) => {
      const sample = hub.callTool('asker__sample', { text: 'hello' }, { timeoutMs: 60_000 });
      const [card] = await chat.cards(1);
      assert.deepEqual(JSON.parse(textOf(await hub.callTool('asker__withdraw', {}))), { withdrawn: 1 });
      assert.equal(await chat.settled(card!.askId), 'withdrawn');
      const [result] = [JSON.parse(textOf(await sample)) as Outcome];
      assert.ok('error' in result!);
      asks.answer(card!.askId, { kind: 'sampling', decision: 'once' });
      assert.equal(api.requests.filter((r) => /hello/.test(JSON.stringify(r.body.messages))).length, 0, 'nothing reached the model');
      assert.equal(chat.posted.filter((m) => m.type === 'askSettled').length, 1);
    });
  });

  test('a form that asks for a password or a key is shown with the fields that look like secrets named, so the card warns', async () => {
    await withAsker(async (hub, chat, asks) => {
      const asked = hub.callTool('asker__ask_secret', {}, { timeoutMs: 60_000 });
      const [card] = await chat.cards(1);
      assert.equal(card!.kind, 'form');
      assert.deepEqual(card!.kind === 'form' && card!.secretFields, ['password', 'apiKey', 'code'], 'a yes/no field names no secret it holds');
      asks.answer(card!.askId, { kind: 'form', action: 'decline' });
      assert.deepEqual(JSON.parse(textOf(await asked)), { result: { action: 'decline' } });
    });
  });

  test('a page to open comes with its site, the registrable domain of a look-alike host, and how an international name reads', async () => {
    await withAsker(async (hub, chat, asks) => {
      const asked = hub.callTool('asker__open_url', { url: 'https://login.example.com.evil.io/signin' }, { timeoutMs: 60_000 });
      const [card] = await chat.cards(1);
      assert.deepEqual(card!.kind === 'url' && card!.site, { host: 'login.example.com.evil.io', domain: 'evil.io' });
      asks.answer(card!.askId, { kind: 'url', action: 'decline' });
      assert.deepEqual(JSON.parse(textOf(await asked)), { result: { action: 'decline' } });
      const idn = hub.callTool('asker__open_url', { url: 'https://аpple.com/' }, { timeoutMs: 60_000 });
      const [, second] = await chat.cards(2);
      assert.deepEqual(second!.kind === 'url' && [second!.url, second!.site], [
        'https://xn--pple-43d.com/',
        { host: 'xn--pple-43d.com', domain: 'xn--pple-43d.com', unicode: 'аpple.com' },
      ]);
      asks.answer(second!.askId, { kind: 'url', action: 'cancel' });
      await idn;
    });
  });

  test('"Always for this server" grants a token budget the chat is told about, and each request without a card uses it', async () => {
    await withAsker(async (hub, chat, asks, sampling) => {
      const first = hub.callTool('asker__sample', { text: 'one' }, { timeoutMs: 60_000 });
      const [card] = await chat.cards(1);
      assert.equal(card!.kind === 'sampling' && card!.alwaysLimit, 100_000, 'the card says what Always allows');
      asks.answer(card!.askId, { kind: 'sampling', decision: 'always' });
      await first;
      const afterFirst = sampling.budgetUse();
      assert.equal(afterFirst.length, 1);
      assert.ok(afterFirst[0]!.server === 'asker' && afterFirst[0]!.used > 0 && afterFirst[0]!.limit === 100_000);
      await hub.callTool('asker__sample', { text: 'two' }, { timeoutMs: 60_000 });
      assert.equal(chat.asks().length, 1, 'no card for the second');
      assert.ok(sampling.budgetUse()[0]!.used > afterFirst[0]!.used, 'the second one is counted');
      assert.ok(chat.budgetChanges >= 2, 'the chat was told each time, to show it');
    });
  });
});
