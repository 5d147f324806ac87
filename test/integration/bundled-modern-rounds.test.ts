// The bundled servers' 2026-07-28 side does what their 2025-11-25 side does, over stdio and stateless --http, through
// the v2 server package (servers/lib/modern-bridge.ts): a question in the middle of a call is asked with
// input_required and answered by the call made again (its signed state refused once tampered with), logs come on
// the request at the level it asked for, and list changes and resource updates on subscriptions/listen streams.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpConnection, type ConnectionOptions } from '../../src/core/mcp/session/connection';
import type { ServerLogSink, SinkLevel } from '../../src/core/mcp/client/client-handlers';
import type { ServerConfig } from '../../src/core/mcp/types';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { startUpstreams, type Upstreams } from '../fakes/upstreams';
import { startBundledHttp, type HttpServerProcess } from './helpers/http-server-process';
import { repoRoot, textOf } from './mcp-support';
import { writeFiles } from './orchestrator-harness';
import { scaled } from '../support/until';

const T = { timeout: scaled(90_000) };
const ECHO = join(repoRoot(), 'out', 'test', 'fakes', 'mcp-echo.js');
const dirs: string[] = [];
const running: HttpServerProcess[] = [];
let up: Upstreams;
let api: FakeAnthropicApi;

function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

const bundle = (name: string): string => join(repoRoot(), 'dist', 'servers', `${name}.js`);

/** A bundled server as the host starts it (stdio, no era given: negotiated) or at the URL of its --http process. */
async function served(name: string, workspace: string, env: Record<string, string>, over: 'stdio' | 'http'): Promise<ServerConfig> {
  if (over === 'stdio') return { name, transport: 'stdio', command: process.execPath, args: [bundle(name), workspace], env };
  const p = await startBundledHttp(name, workspace, env);
  running.push(p);
  return { name, transport: 'http', url: p.url };
}

async function connected<T>(config: ServerConfig, options: ConnectionOptions, body: (conn: McpConnection) => Promise<T>): Promise<T> {
  const conn = new McpConnection(config, { closeGraceMs: 200, ...options });
  try {
    await conn.start();
    assert.equal(conn.era, 'modern');
    return await body(conn);
  } finally {
    await conn.close();
  }
}

/** A definition with a server of its own: the orchestrator asks the person before starting it. */
const ECHOER = [
  '---',
  'name: echoer',
  'description: Uses its own server',
  'mcpServers:',
  '  echo:',
  `    command: ${JSON.stringify(process.execPath)}`,
  `    args: [${JSON.stringify(ECHO)}]`,
  '---',
  'Call the tool you are asked to call.',
  '',
].join('\n');

function echoCall(body: MessagesBody): Reply {
  if (isToolResultTurn(body)) return { text: `The tool said: ${lastUserText(body).slice(0, 200)}` };
  const tool = body.tools?.find((t) => t.name.endsWith('__echo'))?.name;
  return tool ? { text: '', toolUses: [{ name: tool, input: { text: 'ping-from-subagent' } }] } : { text: 'I have no echo tool.' };
}

before(async () => {
  up = await startUpstreams();
  api = new FakeAnthropicApi((body) => echoCall(body));
  await api.start();
});

after(async () => {
  await Promise.all(running.map((p) => p.stop()));
  await api?.stop();
  await up?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the bundled servers in the 2026-07-28 era', () => {
  test('over --http, the rounds of one call may reach two processes that share the signing key', T, async () => {
    const workspace = temp('modern-rounds-balanced-');
    writeFiles(workspace, { '.claude/agents/echoer.md': ECHOER });
    const env = {
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: api.url,
      MCP_AGENT_HOME: temp('modern-rounds-home-'),
      MCP_AGENT_ORCHESTRATOR_APPROVE: 'all',
      MCP_AGENT_REQUEST_STATE_KEY: 'a shared key of at least thirty-two bytes',
    };
    const [a, b] = await Promise.all([startBundledHttp('orchestrator', workspace, env), startBundledHttp('orchestrator', workspace, env)]);
    running.push(a, b);
    // A plain round-robin balancer: each request goes to the other process.
    const urls = [a.url, b.url];
    let next = 0;
    const calls: string[] = [];
    const balanced: typeof fetch = (input, init) => {
      const target = urls[next++ % urls.length] as string;
      if (typeof init?.body === 'string' && init.body.includes('start_agent')) calls.push(target);
      return fetch(target, init);
    };
    const client = new Client({ name: 'balanced', version: '0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } });
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { decision: 'start them' } }));
    await client.connect(new StreamableHTTPClientTransport(new URL(a.url), { fetch: balanced }));
    try {
      const r = await client.callTool({ name: 'start_agent', arguments: { session_name: 'b1', agent_name: 'echoer', prompt: 'echo something' } });
      assert.match(textOf(r as { content: unknown[] }), /The tool said: ping-from-subagent/);
      assert.equal(new Set(calls).size, 2, `the question and the answer reached different processes: ${calls.join(', ')}`);
    } finally {
      await client.close();
    }
  });

  for (const over of ['stdio', 'http'] as const) {
    test(`over ${over}: the orchestrator's question is asked with input_required and answered by the call made again`, T, async () => {
      const workspace = temp('modern-rounds-orch-');
      writeFiles(workspace, { '.claude/agents/echoer.md': ECHOER });
      const env = {
        ANTHROPIC_API_KEY: 'sk-test',
        ANTHROPIC_BASE_URL: api.url,
        MCP_AGENT_HOME: temp('modern-rounds-home-'),
        MCP_AGENT_ORCHESTRATOR_APPROVE: 'all',
      };
      const asked: string[] = [];
      const handlers: ConnectionOptions['handlers'] = {
        elicitation: {
          modes: ['form'],
          handle: async (params) => {
            asked.push(params.message);
            return { action: 'accept', content: { decision: 'start them' } };
          },
        },
      };
      await connected(await served('orchestrator', workspace, env, over), { handlers }, async (conn) => {
        const before = api.requests.length;
        const r = await conn.callTool('start_agent', { session_name: 's1', agent_name: 'echoer', prompt: 'echo something' });
        assert.match(textOf(r), /The tool said: ping-from-subagent/, textOf(r));
        assert.equal(asked.length, 1);
        assert.match(asked[0]!, /"echoer" .* defines MCP servers of its own/);
        // The first round ended at the question: the sub-agent ran once, after the answer.
        assert.equal(api.requests.length - before, 2, 'one turn: a tool call, then the reply');
      });
    });

    test(`over ${over}: logs come on the request at the level it asked for, none below it`, T, async () => {
      const workspace = temp('modern-rounds-research-');
      const env = { ARXIV_API_URL: `${up.origin}/arxiv/query` };
      const config = await served('research', workspace, env, over);
      for (const [level, expected] of [
        ['info', 1],
        ['warning', 0],
      ] as const) {
        const lines: Array<[SinkLevel, string]> = [];
        const sink: ServerLogSink = { log: (at, text) => void lines.push([at, text]) };
        await connected(config, { handlers: { logging: { sink: () => sink, level } } }, async (conn) => {
          const r = await conn.callTool('search_papers', { topic: `logs at ${level}`, max_results: 2 });
          assert.ok(!r.isError, textOf(r));
          const saved = lines.filter(([, t]) => /saved 2 papers on "logs at/.test(t));
          assert.equal(saved.length, expected, JSON.stringify(lines));
          if (expected) assert.equal(saved[0]![0], 'info');
        });
      }
    });

    test(`over ${over}: a new topic and a topic's new papers come on subscriptions/listen streams`, T, async () => {
      const workspace = temp('modern-rounds-listen-');
      const config = await served('research', workspace, { ARXIV_API_URL: `${up.origin}/arxiv/query` }, over);
      await connected(config, {}, async (conn) => {
        assert.ok(conn.supports('subscribe'));
        const uri = 'papers://topics/quantum';
        await conn.subscribeResource(uri);
        const updated = new Promise<string>((resolve) => conn.on('resourceUpdated', (u: string) => u === uri && resolve(u)));
        const listed = new Promise<void>((resolve) => conn.on('change', () => conn.resources.some((r) => r.uri.includes('quantum')) && resolve()));
        const r = await conn.callTool('search_papers', { topic: 'quantum', max_results: 1 });
        assert.ok(!r.isError, textOf(r));
        assert.equal(await updated, uri);
        await listed;
      });
    });

    test(`over ${over}: a request state tampered with or taken to another call is refused`, T, async () => {
      const workspace = temp('modern-rounds-forged-');
      writeFiles(workspace, { '.claude/agents/echoer.md': ECHOER });
      const env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: api.url, MCP_AGENT_HOME: temp('modern-rounds-home-') };
      const client = new Client({ name: 'forger', version: '0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } });
      const config = await served('orchestrator', workspace, env, over);
      await client.connect(
        config.transport === 'http'
          ? new StreamableHTTPClientTransport(new URL(config.url))
          : new StdioClientTransport({
              command: process.execPath,
              args: [bundle('orchestrator'), workspace],
              env: { PATH: process.env.PATH ?? '', ...env },
              stderr: 'ignore',
            }),
      );
      try {
        assert.equal(client.getProtocolEra(), 'modern');
        const args = { session_name: 'f1', agent_name: 'echoer', prompt: 'echo' };
        const first = (await client.callTool({ name: 'start_agent', arguments: args }, { allowInputRequired: true })) as unknown as {
          resultType?: string;
          inputRequests?: Record<string, { method: string }>;
          requestState?: string;
        };
        assert.equal(first.resultType, 'input_required');
        const [key] = Object.keys(first.inputRequests ?? {});
        assert.equal(first.inputRequests?.[key!]?.method, 'elicitation/create');
        const state = first.requestState!;
        const answer = { [key!]: { action: 'accept', content: { decision: 'start them' } } };
        // One character of the signed body changed: the signature no longer holds.
        const dot = state.indexOf('.') + 5;
        const tampered = state.slice(0, dot) + (state[dot] === 'A' ? 'B' : 'A') + state.slice(dot + 1);
        await assert.rejects(
          client.request({ method: 'tools/call', params: { name: 'start_agent', arguments: args, inputResponses: answer, requestState: tampered } }),
          /requestState/i,
        );
        // A good state, but for another call (another session name): refused too.
        await assert.rejects(
          client.request({
            method: 'tools/call',
            params: { name: 'start_agent', arguments: { ...args, session_name: 'f2' }, inputResponses: answer, requestState: state },
          }),
          /another call/,
        );
        assert.equal(api.requests.filter((r) => JSON.stringify(r.body).includes('"echo"')).length, 0, 'no sub-agent ran');
      } finally {
        await client.close();
      }
    });
  }
});
