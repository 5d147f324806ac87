// Bundled by bench/sections/tools.mjs: what many tools cost per request and how the model reaches them,
// through the real McpHub (the bundled servers plus test/fakes/mcp-many-tools.ts over stdio), the real
// ToolOffer, ChatSession and Agent, against the fake Messages API with its tool search and prompt cache.
import Anthropic from '@anthropic-ai/sdk';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatHistory } from '../src/core/chat/chat-history';
import { newChatId, newMeta } from '../src/core/chat/chat-meta';
import { ChatSession } from '../src/core/chat/chat-session';
import { bundledServerConfigs } from '../src/core/mcp/hub/bundled-servers';
import { McpHub } from '../src/core/mcp/hub/hub';
import type { HubTool } from '../src/core/mcp/types';
import { modelToolHost } from '../src/core/tool-offer/tool-choices';
import { ToolOffer } from '../src/core/tool-offer/tool-offer';
import type { ToolSearch } from '../src/core/tool-offer/tool-search-mode';
import { definitionOf } from '../src/core/tool-offer/tool-plan';
import { FakeAnthropicApi } from '../test/fakes/anthropic-api';
import { promptTokenCount } from '../test/fakes/fake-prompt-cache';
import { seeker } from '../test/fakes/tool-seeker';

/** What the model was offered before this work: 128 tools, taken round-robin across servers (the old capFairly). */
const OLD_CAP = 128;

export interface SizeRow {
  tools: number;
  api: number;
  host: number;
  all: number;
  cap: number;
  /** Whether the catalogue's last tool was among the 128 of the old cap. */
  capReachesLast: boolean;
}

export interface ChatRun {
  calls: number;
  readShareAfterFirst: number;
  /** Model calls until each turn's tool was called, per turn. */
  reachedAt: number[];
}

/** Tokens of a request's tools as the API bills them: deferred definitions are not in the prompt. */
function toolTokens(tools: Anthropic.ToolUnion[]): number {
  return promptTokenCount({ tools: tools as never, messages: [] });
}

function oldCap(tools: readonly HubTool[]): HubTool[] {
  const byServer = new Map<string, HubTool[]>();
  for (const t of tools) byServer.set(t.server, [...(byServer.get(t.server) ?? []), t]);
  const picked = new Set<HubTool>();
  for (let i = 0; picked.size < Math.min(OLD_CAP, tools.length); i++) for (const q of byServer.values()) if (q[i] && picked.size < OLD_CAP) picked.add(q[i]!);
  return tools.filter((t) => picked.has(t));
}

async function withHub<T>(dist: string, fakes: string, dir: string, extra: number, body: (hub: McpHub) => Promise<T>): Promise<T> {
  const many =
    extra > 0 ? [{ name: 'many', transport: 'stdio' as const, command: process.execPath, args: [join(fakes, 'mcp-many-tools.js'), String(extra)] }] : [];
  const hub = new McpHub([...bundledServerConfigs(dist, dir, {}), ...many], { connection: { roots: [dir] } });
  hub.start();
  try {
    await hub.settled();
    return await body(hub);
  } finally {
    await hub.dispose();
  }
}

/** Definition tokens of the first request at each catalogue size, for each way of offering tools. */
export async function benchSizes(dist: string, fakes: string, extras: number[]): Promise<SizeRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-tools-'));
  try {
    const rows: SizeRow[] = [];
    for (const extra of extras) {
      rows.push(
        await withHub(dist, fakes, dir, extra, async (hub) => {
          const host = modelToolHost(hub);
          const all = host.tools();
          const capped = oldCap(all);
          const tokens = (search: ToolSearch): number => toolTokens(new ToolOffer(host, search).request([]).tools);
          return {
            tools: all.length,
            api: tokens('api'),
            host: tokens('host'),
            all: toolTokens(all.map(definitionOf)),
            cap: toolTokens(capped.map(definitionOf)),
            capReachesLast: capped.some((t) => t.qualifiedName === all.at(-1)?.qualifiedName),
          };
        }),
      );
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A chat of `turns` turns with `extra` catalogue tools: each turn the model wants another catalogue tool,
 * searches for it, calls it and answers. The share of input read from the cache is taken from the
 * second model call on, as in the chat section.
 */
export async function benchChat(dist: string, fakes: string, extra: number, toolSearch: ToolSearch, turns = 20): Promise<ChatRun> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-tools-chat-'));
  const api = new FakeAnthropicApi();
  await api.start();
  try {
    return await withHub(dist, fakes, dir, extra, async (hub) => {
      const history = new ChatHistory(join(dir, 'chats'));
      const meta = newMeta(newChatId(), 'claude-sonnet-5-5');
      const session = new ChatSession({
        meta,
        store: history.store(meta.id),
        host: modelToolHost(hub),
        workspace: dir,
        approvals: { has: () => true, add: () => undefined },
      });
      const client = new Anthropic({ apiKey: 'sk-bench', baseURL: api.url, maxRetries: 0 });
      const reachedAt: number[] = [];
      for (let t = 0; t < turns; t++) {
        const n = (t * 37 + 11) % extra;
        api.setScript(seeker(`many__tool_${n}`, `tool ${n}`, reachedAt, api.requests.length));
        await session.send(`Turn ${t + 1}: run tool number ${n} of the many server and tell me what it said.`, [], {
          client,
          model: 'claude-sonnet-5-5',
          maxTokens: 1024,
          maxIterations: 6,
          toolTimeoutMs: 30_000,
          keyHint: '',
          toolSearch,
        });
      }
      await session.flush();
      const billed = api.requests.map((r) => r.billed!).slice(1);
      const read = billed.reduce((s, b) => s + b.cache_read_input_tokens, 0);
      const all = billed.reduce((s, b) => s + b.cache_read_input_tokens + b.cache_creation_input_tokens + b.input_tokens, 0);
      return { calls: api.requests.length, readShareAfterFirst: read / all, reachedAt };
    });
  } finally {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
