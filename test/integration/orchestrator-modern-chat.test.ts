// A chat's call to the bundled orchestrator, composed as the extension composes its host (compose-host.ts, the
// chat's cards answering for the person), in the era the host negotiates with it, now 2026-07-28: the sub-agent's
// two approvals in the middle of its turn show as two cards in the chat, and the turn goes on after each answer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientAsks, type AskSurface } from '../../src/core/chat/client-asks';
import { composeHost } from '../../src/core/host/compose-host';
import { bundledServerConfigs } from '../../src/core/mcp/hub/bundled-servers';
import type { McpHub } from '../../src/core/mcp/hub/hub';
import { modelToolHost } from '../../src/core/tool-offer/tool-choices';
import type { ClientAsk, HostMessage } from '../../src/common/protocol';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, systemText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { openTestChat, testTurn } from '../support/test-chat';
import { repoRoot } from './mcp-support';
import { scaled } from '../support/until';

const T = { timeout: scaled(120_000) };

const subAgentCalls = (api: FakeAnthropicApi): number => api.requests.filter((r) => systemText(r.body).includes('You are the sub-agent')).length;

/** The chat's model delegates to a sub-agent; the sub-agent writes two files, each needing the person's approval. */
function model(body: MessagesBody): Reply {
  if (systemText(body).includes('You are the sub-agent')) {
    const done = body.messages.filter((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_result')).length;
    if (done < 2) return { text: '', toolUses: [{ name: 'workspace__write_file', input: { path: `chat-${done + 1}.txt`, content: `${done + 1}\n` } }] };
    return { text: `Sub-agent finished: ${lastUserText(body).slice(0, 200)}` };
  }
  if (isToolResultTurn(body)) return { text: `The orchestrator said: ${lastUserText(body).slice(0, 600)}` };
  return { text: '', toolUses: [{ name: 'orchestrator__start_agent', input: { session_name: 'from-chat', prompt: 'write chat-1.txt and chat-2.txt' } }] };
}

/** The chat page: shows each card and answers it as the person would ("once"), recording what it showed. */
class AnsweringChat implements AskSurface {
  readonly cards: ClientAsk[] = [];
  asks: ClientAsks | undefined;
  constructor(private readonly api: Anthropic) {}
  post(message: HostMessage): void {
    if (message.type !== 'ask') return;
    this.cards.push(message.ask);
    const { askId } = message.ask;
    // Answered a moment later, as a person clicks: the question is waiting by then.
    setImmediate(() => this.asks?.answer(askId, { kind: 'form', action: 'accept', content: { decision: 'once' } }));
  }
  hasPage = (): boolean => true;
  reveal = async (): Promise<void> => undefined;
  client = async (): Promise<Anthropic> => this.api;
  models = async (): Promise<[]> => [];
  model = (): string => 'claude-sonnet-4-5';
  countUsage = (): void => undefined;
  budgetsChanged = (): void => undefined;
}

describe("a chat's call to the orchestrator in 2026-07-28", () => {
  const api = new FakeAnthropicApi(model);
  const dirs: string[] = [];
  let hub: McpHub;
  let asks: ClientAsks;
  let client: Anthropic;
  let chat: AnsweringChat;
  let workspace: string;
  const stderr: string[] = [];

  before(async () => {
    const url = await api.start();
    workspace = mkdtempSync(join(tmpdir(), 'orch-chat-'));
    const home = mkdtempSync(join(tmpdir(), 'orch-chat-home-'));
    dirs.push(workspace, home);
    client = new Anthropic({ apiKey: 'sk-test', baseURL: url, maxRetries: 0 });
    chat = new AnsweringChat(client);
    asks = new ClientAsks({ log: { info: () => undefined, warn: () => undefined }, openExternal: async () => undefined });
    chat.asks = asks;
    asks.attach(chat);
    const env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: url, MCP_AGENT_HOME: home };
    ({ hub } = composeHost({
      configs: bundledServerConfigs(join(repoRoot(), 'dist'), workspace, env).filter((c) => c.name === 'orchestrator'),
      roots: [workspace],
      asks: asks.asks,
      models: asks.models,
      logging: { sink: () => ({ log: (_level, text) => void stderr.push(text) }) },
    }));
    hub.start();
    await hub.settled();
  });

  after(async () => {
    await hub?.dispose();
    asks?.dispose();
    await api.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('the sub-agent asks twice mid-turn: two cards, each answered, and the turn goes on to its reply', T, async () => {
    assert.equal(hub.status('orchestrator')?.state, 'ready', hub.status('orchestrator')?.error);
    assert.equal(hub.status('orchestrator')?.era, 'modern', 'negotiated like the other bundled servers');

    const { session, events } = openTestChat(modelToolHost(hub), workspace);
    const status = await session.send('Delegate the two files to a sub-agent.', [], testTurn(client, { maxIterations: 3, toolTimeoutMs: 60_000 }));
    await session.flush();
    assert.equal(status, 'done');

    assert.equal(chat.cards.length, 2, JSON.stringify(chat.cards));
    assert.ok(chat.cards.every((c) => c.kind === 'form' && c.server === 'orchestrator'));
    assert.match((chat.cards[0] as { message: string }).message, /chat-1\.txt/);
    assert.match((chat.cards[1] as { message: string }).message, /chat-2\.txt/);
    assert.equal(readFileSync(join(workspace, 'chat-1.txt'), 'utf8'), '1\n');
    assert.equal(readFileSync(join(workspace, 'chat-2.txt'), 'utf8'), '2\n');
    assert.equal(subAgentCalls(api), 3, 'the sub-agent ran once: two tool calls and its reply, nothing again');

    const result = events.find((e) => e.kind === 'tool_result');
    assert.ok(result?.kind === 'tool_result' && !result.isError, JSON.stringify(result));
    assert.match(JSON.stringify(result.content), /Sub-agent finished/);
    // One process served it all: the era was probed in it, not in a second one.
    assert.equal(stderr.filter((l) => /orchestrator: serving /.test(l)).length, 1, stderr.join('\n'));
    assert.equal(existsSync(join(workspace, 'chat-3.txt')), false);
  });
});
