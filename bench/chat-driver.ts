// Bundled by bench/sections/chat.mjs: the real ChatSession, Agent and McpHub with the bundled
// servers, against the caching fake Messages API (test/fakes), so what is measured is what the
// extension and the CLI send.
import Anthropic from '@anthropic-ai/sdk';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatHistory } from '../src/core/chat/chat-history';
import { newChatId, newMeta } from '../src/core/chat/chat-meta';
import { ChatSession, type TurnConfig } from '../src/core/chat/chat-session';
import { bundledServerConfigs } from '../src/core/mcp/hub/bundled-servers';
import { McpHub } from '../src/core/mcp/hub/hub';
import { FakeAnthropicApi, type MessagesBody, type Reply } from '../test/fakes/anthropic-api';

export interface CachingRun {
  calls: number;
  /** Input tokens billed at full price, summed over every call. */
  fullPriceInput: number;
  cacheRead: number;
  cacheWrite: number;
  /** All input tokens sent, however billed. */
  promptTokens: number;
  /** cacheRead / promptTokens over calls 2..n. */
  readShareAfterFirst: number;
  costUsd: number;
}

/** Three list_directory calls, then an answer: four model calls a turn. */
function threeToolCalls(body: MessagesBody): Reply {
  const isResults = (m: MessagesBody['messages'][number]) => Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_result');
  const question = body.messages.map((m) => m.role === 'user' && !isResults(m)).lastIndexOf(true);
  const answered = body.messages.slice(question + 1).filter(isResults).length;
  if (answered >= 3) return { text: `Here is what I found after ${answered} looks: the folder holds the project files. `.repeat(4) };
  return { text: 'Let me look.', toolUses: [{ name: 'workspace__list_directory', input: { path: '.' } }] };
}

async function chatRun(hub: McpHub, dir: string, api: FakeAnthropicApi, caching: boolean, turns: number): Promise<CachingRun> {
  api.cache.clear();
  api.requests.length = 0;
  const history = new ChatHistory(join(dir, caching ? 'cached' : 'uncached'));
  const meta = newMeta(newChatId(), 'claude-sonnet-5-5');
  const session = new ChatSession({ meta, store: history.store(meta.id), host: hub, workspace: dir, approvals: { has: () => true, add: () => undefined } });
  const config: TurnConfig = {
    client: new Anthropic({ apiKey: 'sk-bench', baseURL: api.url, maxRetries: 0 }),
    model: 'claude-sonnet-5-5',
    maxTokens: 4096,
    maxIterations: 10,
    toolTimeoutMs: 30_000,
    keyHint: '',
    promptCaching: caching,
  };
  for (let t = 0; t < turns; t++) await session.send(`Turn ${t + 1}: look at the folder three times and tell me what is there.`, [], config);
  await session.flush();
  const billed = api.requests.map((r) => r.billed!);
  const sum = (f: (b: (typeof billed)[number]) => number, from = 0) => billed.slice(from).reduce((n, b) => n + f(b), 0);
  const prompt = (b: (typeof billed)[number]) => b.input_tokens + b.cache_read_input_tokens + b.cache_creation_input_tokens;
  return {
    calls: billed.length,
    fullPriceInput: sum((b) => b.input_tokens),
    cacheRead: sum((b) => b.cache_read_input_tokens),
    cacheWrite: sum((b) => b.cache_creation_input_tokens),
    promptTokens: sum(prompt),
    readShareAfterFirst: sum((b) => b.cache_read_input_tokens, 1) / sum(prompt, 1),
    costUsd: session.info.usage.costUsd ?? 0,
  };
}

/** A 20-turn chat with three tool calls a turn, with and without cache breakpoints. */
export async function benchCaching(distDir: string, turns = 20): Promise<{ cached: CachingRun; uncached: CachingRun; tools: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-chat-'));
  const api = new FakeAnthropicApi(threeToolCalls);
  await api.start();
  const hub = new McpHub(bundledServerConfigs(distDir, dir, {}), { connection: { roots: [dir] } });
  hub.start();
  try {
    await hub.settled();
    const uncached = await chatRun(hub, dir, api, false, turns);
    const cached = await chatRun(hub, dir, api, true, turns);
    return { cached, uncached, tools: hub.tools().length };
  } finally {
    await hub.dispose();
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes a chat of `messages` messages, then times opening it (load) and measures the heap it takes. */
export async function benchOpenChat(messages = 1000): Promise<{ ms: number; heapBytes: number; fileBytes: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-open-'));
  try {
    const history = new ChatHistory(dir);
    const meta = newMeta(newChatId(), 'claude-sonnet-5-5');
    const store = history.store(meta.id);
    const paragraph = 'A sentence of an ordinary answer, with `code` and a [link](https://example.com). '.repeat(6);
    for (let i = 0; i < messages / 2; i++) {
      const turnId = `turn-${i}`;
      void store.events.append({ kind: 'user', id: `u${i}`, text: `Question ${i}: ${paragraph.slice(0, 120)}`, attachments: [], at: i });
      void store.events.append({ kind: 'assistant_text', turnId, blockId: `${turnId}:0:0`, text: paragraph });
      void store.events.append({ kind: 'turn_end', turnId, status: 'done' });
      void store.messages.append({ role: 'user', content: [{ type: 'text', text: `Question ${i}` }] });
      void store.messages.append({ role: 'assistant', content: [{ type: 'text', text: paragraph }] });
    }
    await Promise.all([store.events.flush(), store.messages.flush()]);
    const { statSync } = await import('node:fs');
    const fileBytes = statSync(store.events.file).size + statSync(store.messages.file).size;
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const session = new ChatSession({
      meta,
      store: history.store(meta.id),
      host: { tools: () => [], callTool: async () => ({ content: [] }) },
      workspace: dir,
      approvals: { has: () => false, add: () => undefined },
    });
    await session.load();
    const ms = performance.now() - t0;
    global.gc?.();
    const heapBytes = process.memoryUsage().heapUsed - heapBefore;
    if (session.messages.length !== messages) throw new Error(`loaded ${session.messages.length} messages, wrote ${messages}`);
    return { ms, heapBytes, fileBytes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** From send() to the request arriving at the (local) API: the host's own latency before the model is asked. */
export async function benchEnterToRequest(samples = 30): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-enter-'));
  const api = new FakeAnthropicApi(() => ({ text: 'ok' }));
  await api.start();
  try {
    const history = new ChatHistory(dir);
    const meta = newMeta(newChatId(), 'claude-sonnet-5-5');
    const session = new ChatSession({
      meta,
      store: history.store(meta.id),
      host: { tools: () => [], callTool: async () => ({ content: [] }) },
      workspace: dir,
      approvals: { has: () => false, add: () => undefined },
    });
    const config: TurnConfig = {
      client: new Anthropic({ apiKey: 'sk-bench', baseURL: api.url, maxRetries: 0 }),
      model: 'claude-sonnet-5-5',
      maxTokens: 1024,
      maxIterations: 2,
      toolTimeoutMs: 1000,
      keyHint: '',
    };
    const out: number[] = [];
    for (let i = 0; i < samples; i++) {
      const arrived = api.waitForRequests(api.requests.length + 1).then(() => performance.now());
      const t0 = performance.now();
      const done = session.send(`message ${i}`, [], config);
      out.push((await arrived) - t0);
      await done;
    }
    return out.slice(5); // the first few warm up the SDK and the connection
  } finally {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
