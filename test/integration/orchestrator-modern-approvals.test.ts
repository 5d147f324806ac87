// A sub-agent's approvals asked in the middle of its turn, served to a 2026-07-28 client over stdio and --http
// (servers/lib/modern-continuation.ts): each approval ends a round with input_required while the turn waits in the
// process, and the round that brings the answer goes on with it: the model is called as often as in 2025-11-25 and
// the transcript is written once. Refused: a tampered state, an answer to another question, one given twice. A
// continuation nobody answers is stopped when its time is up; one in another process is said to be elsewhere; a
// cancelled round stops the turn.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { FakeAnthropicApi, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { scaled, until } from '../support/until';
import { startBundledHttp, type HttpServerProcess } from './helpers/http-server-process';
import { repoRoot } from './mcp-support';
import { startOrchestrator, writeFiles } from './orchestrator-harness';

const T = { timeout: scaled(120_000) };
const KEY = 'a signing key both processes share, 32+ bytes';
const dirs: string[] = [];
const closers: Array<() => Promise<void>> = [];
let api: FakeAnthropicApi;
let home: string;

function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** The sub-agent's task: `<mode> <session>`; the model's replies follow the mode. */
function promptOf(body: MessagesBody): string {
  const first = body.messages[0]?.content;
  return typeof first === 'string' ? first : (first ?? []).map((b) => (b.type === 'text' ? String(b.text) : '')).join('\n');
}

function toolResults(body: MessagesBody): number {
  return body.messages.filter((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_result')).length;
}

const write = (path: string, content: string): Reply => ({ text: '', toolUses: [{ name: 'workspace__write_file', input: { path, content } }] });

/** `two`: two writes, each asked, then a reply; `pair`: two writes in one reply (asked at once); `hang`: one write, then a reply that never comes; else one write. */
function subAgent(body: MessagesBody): Reply {
  const [mode, name] = promptOf(body).trim().split(/\s+/);
  const done = toolResults(body);
  if (mode === 'two' && done < 2) return write(`${name}-${done + 1}.txt`, `write ${done + 1}\n`);
  if (mode === 'pair' && done === 0)
    return { text: '', toolUses: [1, 2].map((n) => ({ name: 'workspace__write_file', input: { path: `${name}-${n}.txt`, content: `pair ${n}\n` } })) };
  if (done === 0) return write(`${name}-1.txt`, 'write 1\n');
  if (mode === 'hang') return { hang: true };
  return { text: `Finished: ${lastUserText(body).slice(0, 300)}` };
}

/** A definition with a server of its own: the orchestrator asks the person before starting it. */
const ECHOER = [
  '---',
  'name: echoer',
  'description: Has a server of its own',
  'mcpServers:',
  '  echo:',
  `    command: ${JSON.stringify(process.execPath)}`,
  `    args: [${JSON.stringify(join(repoRoot(), 'out', 'test', 'fakes', 'mcp-echo.js'))}]`,
  '---',
  'Do the task.',
  '',
].join('\n');

const modelCalls = (prompt: string): number => api.requests.filter((r) => promptOf(r.body).trim() === prompt).length;

interface Round {
  resultType?: string;
  inputRequests?: Record<string, { method: string; params: { message: string } }>;
  requestState?: string;
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

interface Answer {
  answers: Record<string, unknown>;
  state: string;
}

/** A 2026-07-28 client of an orchestrator started for it (stdio), or of its --http process. */
async function open(over: 'stdio' | 'http', workspace: string, env: Record<string, string> = {}): Promise<Client> {
  const all = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: api.url, MCP_AGENT_HOME: home, ...env };
  const client = new Client({ name: 'modern-approvals', version: '0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } });
  let server: HttpServerProcess | undefined;
  if (over === 'http') server = await startBundledHttp('orchestrator', workspace, all);
  await client.connect(
    server
      ? new StreamableHTTPClientTransport(new URL(server.url))
      : new StdioClientTransport({
          command: process.execPath,
          args: [join(repoRoot(), 'dist', 'servers', 'orchestrator.js'), workspace],
          env: { PATH: process.env.PATH ?? '', ...all },
          stderr: 'ignore',
        }),
  );
  assert.equal(client.getProtocolEra(), 'modern');
  closers.push(async () => {
    await client.close();
    await server?.stop();
  });
  return client;
}

/** One round of start_agent: the first (no answer) or one that answers the last question. */
async function round(
  client: Client,
  prompt: string,
  answer?: Answer,
  options: { signal?: AbortSignal; onprogress?: (p: { message?: string }) => void } = {},
): Promise<Round> {
  const [mode, name] = prompt.split(' ');
  const params = {
    name: 'start_agent',
    // `consent`: an agent with a server of its own, which the person is asked about before the turn.
    arguments: { session_name: name, prompt, ...(mode === 'consent' ? { agent_name: 'echoer' } : {}) },
    ...(answer ? { inputResponses: answer.answers, requestState: answer.state } : {}),
  };
  return (await client.callTool(params, { allowInputRequired: true, timeout: scaled(60_000), ...options })) as Round;
}

/** The one question a round asks, and the answer `decision` to it. */
function decide(r: Round, decision: string): Answer & { message: string } {
  assert.equal(r.resultType, 'input_required', JSON.stringify(r));
  const [key, ...more] = Object.keys(r.inputRequests ?? {});
  assert.equal(more.length, 0);
  assert.equal(r.inputRequests?.[key!]?.method, 'elicitation/create');
  return { answers: { [key!]: { action: 'accept', content: { decision } } }, state: r.requestState!, message: r.inputRequests![key!]!.params.message };
}

const textOf = (r: Round): string => (r.content ?? []).map((c) => c.text ?? '').join('');

async function session(client: Client, name: string): Promise<{ status: string; detail?: string; messages: unknown[] }> {
  const r = (await client.callTool({ name: 'get_session', arguments: { session_name: name, response_format: 'json' } })) as Round;
  const json = r.structuredContent as { session: { status: string; detail?: string }; messages: unknown[] };
  return { ...json.session, messages: json.messages };
}

/** Waits until the session is no longer running, asking every 100 ms (no clock is asserted). */
async function settled(client: Client, name: string): Promise<{ status: string; detail?: string; messages: unknown[] }> {
  let last: { status: string; detail?: string } | undefined;
  return until(
    async () => {
      const s = await session(client, name);
      last = { status: s.status, detail: s.detail };
      return s.status !== 'running' ? s : undefined;
    },
    { what: `session ${name} to stop running`, timeoutMs: 60_000, everyMs: 100, seen: () => last },
  );
}

/** The same two approvals in 2025-11-25 (a v1 client, asked by elicitation requests): what a turn costs there. */
let legacy: { calls: number; messages: number } | undefined;
async function legacyFigures(): Promise<{ calls: number; messages: number }> {
  if (legacy) return legacy;
  const workspace = temp('modern-approvals-legacy-');
  const orch = await startOrchestrator(workspace, {
    env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: api.url, MCP_AGENT_HOME: home },
    elicit: () => ({ action: 'accept', content: { decision: 'once' } }),
  });
  try {
    const r = await orch.call('start_agent', { session_name: 'legacy', prompt: 'two legacy' });
    assert.match(r.content.map((c) => (c.type === 'text' ? c.text : '')).join(''), /Finished/);
    const s = await orch.call('get_session', { session_name: 'legacy', response_format: 'json' });
    return (legacy = { calls: modelCalls('two legacy'), messages: (s.structuredContent as { messages: unknown[] }).messages.length });
  } finally {
    await orch.close();
  }
}

before(async () => {
  api = new FakeAnthropicApi(subAgent);
  await api.start();
  home = temp('modern-approvals-home-');
});

after(async () => {
  await Promise.all(closers.map((c) => c().catch(() => undefined)));
  await api?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

for (const over of ['stdio', 'http'] as const) {
  describe(`a sub-agent's approvals in the 2026-07-28 era, over ${over}`, () => {
    let workspace: string;
    let client: Client;
    before(async () => {
      workspace = temp(`modern-approvals-${over}-`);
      client = await open(over, workspace);
    });

    test('two approvals in a row: two rounds held open, then the result; no rerun, the transcript written once', T, async () => {
      const prompt = `two two-${over}`;
      const seen: string[][] = [[], [], []];
      const first = await round(client, prompt, undefined, { onprogress: (p) => seen[0]!.push(p.message ?? '') });
      const q1 = decide(first, 'once');
      assert.match(q1.message, new RegExp(`two-${over}-1\\.txt`));

      // Refused, and the turn still waits: an answer to another question, a state tampered with.
      await assert.rejects(
        round(client, prompt, { answers: { 'another.0': { action: 'accept', content: { decision: 'once' } } }, state: q1.state }),
        /does not answer the question asked/,
      );
      const dot = q1.state.indexOf('.') + 5;
      const tampered = q1.state.slice(0, dot) + (q1.state[dot] === 'A' ? 'B' : 'A') + q1.state.slice(dot + 1);
      await assert.rejects(round(client, prompt, { ...q1, state: tampered }), /requestState/i);

      const second = await round(client, prompt, q1, { onprogress: (p) => seen[1]!.push(p.message ?? '') });
      const q2 = decide(second, 'once');
      assert.match(q2.message, new RegExp(`two-${over}-2\\.txt`));
      assert.equal(readFileSync(join(workspace, `two-${over}-1.txt`), 'utf8'), 'write 1\n');
      // The first answer given again (its state replayed): that question was answered already.
      await assert.rejects(round(client, prompt, q1), /answered already/);

      const last = await round(client, prompt, q2, { onprogress: (p) => seen[2]!.push(p.message ?? '') });
      assert.equal(last.resultType ?? 'complete', 'complete');
      assert.match(textOf(last), /Finished/, textOf(last));
      assert.equal(readFileSync(join(workspace, `two-${over}-2.txt`), 'utf8'), 'write 2\n');

      // Each round carried the progress of its part of the turn, under its own token.
      assert.ok(
        seen[0]!.some((m) => /model call 1/.test(m)),
        JSON.stringify(seen),
      );
      assert.ok(
        seen[1]!.some((m) => /model call 2/.test(m)),
        JSON.stringify(seen),
      );
      assert.ok(
        seen[2]!.some((m) => /model call 3/.test(m)),
        JSON.stringify(seen),
      );

      const figures = await legacyFigures();
      assert.equal(modelCalls(prompt), figures.calls, 'the model is called as often as in 2025-11-25');
      assert.equal(figures.calls, 3);
      const s = await session(client, `two-${over}`);
      assert.equal(s.status, 'done');
      assert.equal(s.messages.length, figures.messages, 'the transcript holds each message once');
    });

    test('a question before the turn is answered by the call made again, one during it by the call held open', T, async () => {
      writeFiles(workspace, { '.claude/agents/echoer.md': ECHOER });
      const prompt = `consent consent-${over}`;
      const consent = decide(await round(client, prompt), 'start them');
      assert.match(consent.message, /defines MCP servers of its own/);
      assert.equal(modelCalls(prompt), 0, 'asked before the sub-agent ran');
      const approval = decide(await round(client, prompt, consent), 'once');
      assert.match(approval.message, /consent-.*-1\.txt/);
      const r = await round(client, prompt, approval);
      assert.match(textOf(r), /Finished/, textOf(r));
      assert.equal(modelCalls(prompt), 2, 'the sub-agent ran once: its write, then its reply');
    });

    test('two approvals asked at once (two calls in one reply) come one round after the other', T, async () => {
      const prompt = `pair pair-${over}`;
      const q1 = decide(await round(client, prompt), 'once');
      const q2 = decide(await round(client, prompt, q1), 'once');
      assert.notEqual(q1.message, q2.message);
      assert.match(`${q1.message}\n${q2.message}`, new RegExp(`pair-${over}-1\\.txt[^]*pair-${over}-2\\.txt|pair-${over}-2\\.txt[^]*pair-${over}-1\\.txt`));
      const r = await round(client, prompt, q2);
      assert.match(textOf(r), /Finished/, textOf(r));
      assert.equal(readFileSync(join(workspace, `pair-${over}-1.txt`), 'utf8'), 'pair 1\n');
      assert.equal(readFileSync(join(workspace, `pair-${over}-2.txt`), 'utf8'), 'pair 2\n');
      assert.equal(modelCalls(prompt), 2);
    });

    test('a denial reaches the sub-agent as a denial', T, async () => {
      const prompt = `one deny-${over}`;
      const answer = decide(await round(client, prompt), 'deny');
      const r = await round(client, prompt, answer);
      assert.match(textOf(r), /Finished: .*denied/is, textOf(r));
      assert.equal(existsSync(join(workspace, `deny-${over}-1.txt`)), false);
      assert.equal(modelCalls(prompt), 2);
    });

    test('a cancelled round stops the turn: the model request is aborted, the session interrupted', T, async () => {
      const prompt = `hang cancel-${over}`;
      const answer = decide(await round(client, prompt), 'once');
      const aborts = api.abortedResponses;
      const controller = new AbortController();
      const going = round(client, prompt, answer, { signal: controller.signal });
      // Checked and waited for in one tick: the second model call (the one that never answers) cannot slip between.
      while (modelCalls(prompt) < 2) await api.waitForRequests(api.requests.length + 1);
      controller.abort();
      await assert.rejects(going);
      await api.waitForAborts(aborts + 1);
      const s = await settled(client, `cancel-${over}`);
      assert.equal(s.status, 'interrupted');
      assert.match(s.detail ?? '', /Cancelled/);
    });
  });

  test(`over ${over}: an answer nobody brings stops the turn at its time; another process does not have it`, T, async () => {
    const workspace = temp(`modern-approvals-expiry-${over}-`);
    const env = { MCP_AGENT_REQUEST_STATE_KEY: KEY };
    const holder = await open(over, workspace, { ...env, MCP_AGENT_ORCHESTRATOR_ASK_SECONDS: '1' });
    const other = await open(over, workspace, env);
    const prompt = `one expiry-${over}`;
    const answer = decide(await round(holder, prompt), 'once');
    // The same key verifies the state there, but the turn waits in the first process only.
    await assert.rejects(round(other, prompt, answer), /another server process, or no longer waits/);
    const s = await settled(holder, `expiry-${over}`);
    assert.equal(s.status, 'interrupted');
    assert.match(s.detail ?? '', /nobody answered the question within/);
    // The transcript says so too, at its head.
    const transcript = (await holder.callTool({ name: 'get_session', arguments: { session_name: `expiry-${over}` } })) as Round;
    assert.match(textOf(transcript), /Status: interrupted — Stopped waiting for an approval: nobody answered the question within 1 s/);
    await assert.rejects(round(holder, prompt, answer), /no longer waits/);
    assert.equal(existsSync(join(workspace, `expiry-${over}-1.txt`)), false);
    assert.equal(modelCalls(prompt), 1);
  });
}
