import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { Agent } from '../../src/core/agent/agent';
import { RESULT_LIMITS } from '../../src/core/agent/result-caps';
import type { AgentOutput } from '../../src/core/agent/types';
import { McpHub } from '../../src/core/mcp/hub/hub';
import { ChatStore } from '../../src/core/chat/chat-store';
import { ChatSession } from '../../src/core/chat/chat-session';
import { CHAT_FORMAT } from '../../src/core/chat/chat-format';
import { newMeta, readMeta, writeMeta } from '../../src/core/chat/chat-meta';
import type { ChatEvent } from '../../src/common/protocol';
import { FakeAnthropicApi, type MessagesBody } from '../fakes/anthropic-api';
import { fakeConfig } from './mcp-support';
import { scaled } from '../support/until';

const T = { timeout: scaled(60_000) };
const THREE_MB = 3 * 1024 * 1024;

/** The text of every tool_result the request carries, joined. */
function toolResultText(body: MessagesBody): string {
  return body.messages
    .flatMap((m) => (typeof m.content === 'string' ? [] : m.content))
    .filter((b) => b.type === 'tool_result')
    .map((b) => {
      const c = b.content as string | Array<{ type: string; text?: string }>;
      return typeof c === 'string' ? c : c.map((x) => x.text ?? '').join('');
    })
    .join('');
}

const requestBytes = (body: MessagesBody): number => Buffer.byteLength(JSON.stringify(body));

describe('a 3 MB tool result, through the real agent, SDK and an MCP server', () => {
  const api = new FakeAnthropicApi();
  const hub = new McpHub([fakeConfig('echo', 'mcp-echo')]);
  let client: Anthropic;
  let dir: string;
  before(async () => {
    // as the real API does: a prompt over the context window is refused with a 400
    api.promptTokenLimit = 200_000;
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
    hub.start();
    await hub.settled();
    dir = mkdtempSync(join(tmpdir(), 'agent-big-'));
  });
  after(async () => {
    await hub.dispose();
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  function agent(extra: Partial<ConstructorParameters<typeof Agent>[0]> = {}): Agent {
    return new Agent({
      client,
      host: hub,
      model: 'claude-test',
      workspaceName: 'ws',
      approvals: { has: () => true, add: () => undefined },
      askApproval: async () => 'once',
      ...extra,
    });
  }

  async function run(a: Agent, prompt: string) {
    const out: AgentOutput[] = [];
    const status = await a.runTurn({ text: prompt }, (o) => out.push(o), new AbortController().signal);
    const events = out.filter((o): o is { type: 'event'; event: ChatEvent } => o.type === 'event').map((o) => o.event);
    return { status, events };
  }

  test('reaches the model capped, says where it was cut, and the next turn still works', T, async () => {
    api.setScript([{ toolUses: [{ name: 'echo__big', input: { bytes: THREE_MB } }] }, { text: 'read it' }, { text: 'second turn ok' }]);
    const store = new ChatStore(join(dir, 'chat'));
    const a = agent({ onMessage: (m) => void store.messages.append(m) });
    const first = await run(a, 'fetch the big thing');
    assert.equal(first.status, 'done');
    const afterTool = api.requests.at(-1)!.body;
    const sent = toolResultText(afterTool);
    assert.ok(Buffer.byteLength(sent) <= RESULT_LIMITS.textPerResult, `sent ${Buffer.byteLength(sent)} bytes`);
    assert.ok(sent.startsWith('xxxx'), 'the start is kept');
    assert.match(sent, /\[cut: this result held 3\.0 MiB of text, over the 100 KiB it may send to the model/);
    assert.match(sent, /call echo__big again for a smaller part/);
    assert.ok(requestBytes(afterTool) < 150 * 1024);

    const shown = first.events.find((e) => e.kind === 'tool_result');
    assert.ok(shown?.kind === 'tool_result');
    const chatText = shown.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    assert.ok(Buffer.byteLength(chatText) <= RESULT_LIMITS.textPerResult, 'the chat gets the capped text too');

    const second = await run(a, 'and now?');
    assert.equal(second.status, 'done', JSON.stringify(second.events.at(-1)));
    assert.ok(requestBytes(api.requests.at(-1)!.body) < 150 * 1024);

    await store.messages.flush();
    const restored = agent({ history: await store.messages.load() });
    api.setScript([{ text: 'restored ok' }]);
    assert.equal((await run(restored, 'still there?')).status, 'done');
  });

  test('with a model whose window is small, one big result is sized to the window and the turn goes on', T, async (t) => {
    // A proxy or a local model: 16k tokens, refused past it as the real API refuses ("prompt is too long").
    api.promptTokenLimit = 16_000;
    t.after(() => (api.promptTokenLimit = 200_000));
    api.setScript([{ toolUses: [{ name: 'echo__big', input: { bytes: THREE_MB } }] }, { text: 'read what fit' }]);
    const { status, events } = await run(agent({ contextWindow: 16_000 }), 'fetch the big thing');
    assert.equal(status, 'done', JSON.stringify(events.at(-1)));
    const sent = toolResultText(api.requests.at(-1)!.body);
    assert.ok(Buffer.byteLength(sent) <= 16_000, `sent ${Buffer.byteLength(sent)} bytes of result to a 16k-token window`);
    assert.match(sent, /over the 16 KiB it may send to the model \(at most 16 KiB per tool result/);
  });

  test('a chat saved uncapped by an older version is migrated once when opened, then sent capped', T, async () => {
    const store = new ChatStore(join(dir, 'old-chat'));
    const big = 'line of an old result\n'.repeat(Math.ceil(THREE_MB / 22));
    const lines: unknown[] = [
      { role: 'user', content: [{ type: 'text', text: 'read it' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_old', name: 'echo__big', input: { bytes: THREE_MB } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_old', content: [{ type: 'text', text: big }] }] },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    ];
    mkdirSync(store.dir, { recursive: true });
    writeFileSync(join(store.dir, 'messages.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    writeFileSync(
      join(store.dir, 'events.jsonl'),
      `${JSON.stringify({ kind: 'tool_result', callId: 'toolu_old', isError: false, content: [{ type: 'text', text: big }], durationMs: 5 })}\n`,
    );
    // The meta of a chat of the first format: no `format`.
    const { format: _f, ...old } = newMeta('oldchat1', 'claude-test', 1000);
    await writeMeta(store.dir, old);
    const open = async (): Promise<ChatSession> => {
      const session = new ChatSession({
        meta: (await readMeta(store.dir))!,
        store,
        host: hub,
        workspace: dir,
        approvals: { has: () => true, add: () => undefined },
        ask: async () => 'once',
      });
      await session.load();
      await session.flush();
      return session;
    };

    const session = await open();
    const shown = session.events[0];
    assert.ok(shown?.kind === 'tool_result');
    const shownText = shown.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    assert.ok(Buffer.byteLength(shownText) <= RESULT_LIMITS.textPerResult, 'the page gets a capped result');
    // Migrated on disk, once: the logs are the capped ones, the chat is stamped, and its place in the history kept.
    assert.ok(statSync(join(store.dir, 'events.jsonl')).size < RESULT_LIMITS.textPerResult * 2);
    assert.ok(statSync(join(store.dir, 'messages.jsonl')).size < RESULT_LIMITS.textPerResult * 2);
    const stamped = await readMeta(store.dir);
    assert.deepEqual([stamped?.format, stamped?.updatedAt], [CHAT_FORMAT, 1000]);
    const migratedAt = statSync(join(store.dir, 'messages.jsonl')).mtimeMs;

    api.setScript([{ text: 'repaired' }]);
    assert.equal(
      await session.send('go on', [], { client, model: 'claude-test', maxTokens: 1024, maxIterations: 3, toolTimeoutMs: 10_000, keyHint: '' }),
      'done',
    );
    const sent = toolResultText(api.requests.at(-1)!.body);
    assert.ok(Buffer.byteLength(sent) <= RESULT_LIMITS.textPerResult);
    assert.match(sent, /lines 1-\d[\d,]* \(\d+ KiB\) above and lines [\d,]+-[\d,]+ below/);
    await session.flush();
    const appended = statSync(join(store.dir, 'messages.jsonl')).mtimeMs;
    session.dispose();

    // Opened again: read as it is, never rewritten.
    const again = await open();
    assert.equal(statSync(join(store.dir, 'messages.jsonl')).mtimeMs, appended);
    assert.ok(appended >= migratedAt);
    assert.equal(again.messages.length, 6);
    again.dispose();
  });
});
