import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { childrenOf, sessionPath, sessions, startOrchestrator, textOf, waitForSession, type Orchestrator } from './orchestrator-harness';

/** Approvals through elicitation, cancellation, a killed server, parallel and busy sessions, hostile names, no key. */

const ENOUGH = 20_000;

function writeCall(path: string, content = 'x'): (body: MessagesBody) => Reply {
  return (body) =>
    isToolResultTurn(body)
      ? { text: `Result: ${lastUserText(body).slice(0, 200)}` }
      : { text: '', toolUses: [{ name: 'workspace__write_file', input: { path, content } }] };
}

describe('orchestrator under faults', () => {
  let api: FakeAnthropicApi;
  /** MCP_AGENT_HOME of every orchestrator here: where they keep the sessions. */
  let home: string;
  let reply: (body: MessagesBody) => Reply = () => ({ text: 'nothing scripted' });
  const workspaces: string[] = [];
  const open: Orchestrator[] = [];

  const workspace = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-faults-'));
    workspaces.push(dir);
    return dir;
  };
  const start = async (dir: string, options: Parameters<typeof startOrchestrator>[1] = {}): Promise<Orchestrator> => {
    const o = await startOrchestrator(dir, {
      ...options,
      env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: api.url, MCP_AGENT_HOME: home, ...options.env },
    });
    open.push(o);
    return o;
  };

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'orch-faults-home-'));
    api = new FakeAnthropicApi((body) => reply(body));
    await api.start();
  });

  after(async () => {
    await Promise.all(open.map((o) => o.close().catch(() => undefined)));
    await api?.stop();
    for (const dir of [...workspaces, home]) rmSync(dir, { recursive: true, force: true });
  });

  test('a client that declares elicitation is asked, and its answer decides', async () => {
    const dir = workspace();
    const asked: ElicitRequest['params'][] = [];
    let answer: 'once' | 'deny' = 'once';
    const orch = await start(dir, {
      elicit: (params) => {
        asked.push(params);
        return { action: 'accept', content: { decision: answer } };
      },
    });
    reply = writeCall('asked.txt', 'approved\n');
    let r = await orch.call('start_agent', { session_name: 'asked', prompt: 'write asked.txt' });
    assert.ok(!r.isError, textOf(r));
    assert.equal(readFileSync(join(dir, 'asked.txt'), 'utf8'), 'approved\n');
    assert.equal(asked.length, 1);
    assert.match(asked[0]!.message, /Write asked\.txt/);
    assert.match(asked[0]!.message, /approved/, 'the question shows what would be written');

    answer = 'deny';
    reply = writeCall('denied.txt');
    r = await orch.call('start_agent', { session_name: 'denied', prompt: 'write denied.txt' });
    assert.equal(asked.length, 2);
    assert.equal(existsSync(join(dir, 'denied.txt')), false);
    assert.match(textOf(r), /denied/);
  });

  test('a call that needs approval is refused when the client cannot be asked, saying how to allow it', async () => {
    const dir = workspace();
    const orch = await start(dir);
    reply = writeCall('refused.txt');
    const r = await orch.call('start_agent', { session_name: 'refused', prompt: 'Write refused.txt' });
    const text = textOf(r);
    assert.match(text, /refused without asking/i);
    assert.match(text, /workspace__write_file/);
    assert.match(text, /MCP_AGENT_ORCHESTRATOR_APPROVE=all/);
    assert.match(text, /elicitation/);
    assert.equal(existsSync(join(dir, 'refused.txt')), false);
  });

  test('a write to a sensitive file is refused without a way to ask, even with APPROVE=all', async () => {
    const dir = workspace();
    const orch = await start(dir, { env: { MCP_AGENT_ORCHESTRATOR_APPROVE: 'all' } });
    reply = writeCall('.vscode/tasks.json', '{"tasks":[]}');
    const r = await orch.call('start_agent', { session_name: 'sensitive', prompt: 'add a task' });
    assert.match(textOf(r), /always needs a person's approval/);
    assert.equal(existsSync(join(dir, '.vscode', 'tasks.json')), false);
    // An ordinary write runs without asking under APPROVE=all.
    reply = writeCall('plain.txt', 'ok');
    const ok = await orch.call('start_agent', { session_name: 'plain', prompt: 'write plain.txt' });
    assert.ok(!ok.isError, textOf(ok));
    assert.equal(readFileSync(join(dir, 'plain.txt'), 'utf8'), 'ok');
  });

  test('cancelling the call stops the model request; the session is interrupted and resumable', async () => {
    const dir = workspace();
    const orch = await start(dir);
    const aborts = api.abortedResponses;
    const sent = api.requests.length;
    reply = () => ({ hang: true });
    const controller = new AbortController();
    const call = orch.call('start_agent', { session_name: 'cancelled', prompt: 'take forever' }, { signal: controller.signal });
    await api.waitForRequests(sent + 1);
    controller.abort();
    await assert.rejects(call);
    await api.waitForAborts(aborts + 1);
    const s = await waitForSession(orch, 'cancelled', (x) => x.status !== 'running');
    assert.equal(s?.status, 'interrupted');
    assert.match(s?.detail ?? '', /Cancelled/);
    reply = () => ({ text: 'resumed' });
    const r = await orch.call('resume_agent', { session_name: 'cancelled', prompt: 'go on' });
    assert.ok(!r.isError, textOf(r));
    assert.match(textOf(r), /resumed/);
  });

  test("cancelling the call stops the sub-agent's running tool", async (t) => {
    const dir = workspace();
    mkdirSync(join(dir, '.mcp-agent', 'agents'), { recursive: true });
    writeFileSync(
      join(dir, '.mcp-agent', 'agents', 'runner.md'),
      '---\nname: runner\ndescription: Runs code\ntools: workspace__run_code\n---\nRun what you are asked.\n',
    );
    // The code calls back to the test, so the test knows it runs, and the socket closes when it is killed.
    let onConnect: (socket: Socket) => void = () => undefined;
    const connected = new Promise<Socket>((resolve) => (onConnect = resolve));
    const listener = createServer((socket) => onConnect(socket));
    t.after(() => listener.close());
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as AddressInfo).port;
    const code = `import socket, time\ns = socket.create_connection(('127.0.0.1', ${port}))\ntime.sleep(120)\n`;
    reply = (body) =>
      isToolResultTurn(body) ? { text: 'stopped?' } : { text: '', toolUses: [{ name: 'workspace__run_code', input: { code, timeout: 120 } }] };
    // The person approves every call for this server; the definition's tools only offer run_code.
    const orch = await start(dir, { env: { MCP_AGENT_SANDBOX: 'off', MCP_AGENT_ORCHESTRATOR_APPROVE: 'all' } });
    const controller = new AbortController();
    const call = orch.call('start_agent', { session_name: 'tool-cancel', agent_name: 'runner', prompt: 'run it' }, { signal: controller.signal });
    const socket = await connected;
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    controller.abort();
    await assert.rejects(call);
    await closed;
    const s = await waitForSession(orch, 'tool-cancel', (x) => x.status !== 'running');
    assert.equal(s.status, 'interrupted');
  });

  test('killed with SIGKILL mid-turn: the next start marks the session interrupted, and it resumes with its history', async () => {
    const dir = workspace();
    const first = await start(dir);
    const sent = api.requests.length;
    reply = () => ({ hang: true });
    const call = first.call('start_agent', { session_name: 'killed', prompt: 'the prompt before the crash' }).catch((e: Error) => e);
    await api.waitForRequests(sent + 1);
    process.kill(first.pid, 'SIGKILL');
    assert.ok((await call) instanceof Error, 'the call fails with the connection');
    const saved = JSON.parse(readFileSync(sessionPath(home, dir, 'killed', 'session.json'), 'utf8'));
    assert.equal(saved.status, 'running', 'the killed process could not save anything more');

    const second = await start(dir);
    const s = (await sessions(second)).find((x) => x.name === 'killed');
    assert.equal(s?.status, 'interrupted');
    assert.match(s?.detail ?? '', /killed or crashed/);
    reply = () => ({ text: 'picked up again' });
    const before = api.requests.length;
    const r = await second.call('resume_agent', { session_name: 'killed', prompt: 'continue' });
    assert.ok(!r.isError, textOf(r));
    assert.match(JSON.stringify(api.requests[before]!.body.messages), /the prompt before the crash/);
    assert.equal((await sessions(second)).find((x) => x.name === 'killed')?.status, 'done');
  });

  test('closed mid-turn (an editor reload): the turn is saved as interrupted before the server exits', async () => {
    const dir = workspace();
    const orch = await start(dir);
    const sent = api.requests.length;
    reply = () => ({ hang: true });
    // Whether the answer still gets out before the pipe closes does not matter: the state on disk does.
    const call = orch.call('start_agent', { session_name: 'reloaded', prompt: 'before the reload' }).catch((e: Error) => e);
    await api.waitForRequests(sent + 1);
    await orch.close();
    await call;
    const saved = JSON.parse(readFileSync(sessionPath(home, dir, 'reloaded', 'session.json'), 'utf8'));
    assert.equal(saved.status, 'interrupted');
    assert.match(saved.detail, /stopped during this turn/);
    assert.match(readFileSync(sessionPath(home, dir, 'reloaded', 'messages.jsonl'), 'utf8'), /before the reload/);
  });

  test('sessions run in parallel up to the cap; a busy session and one past the cap are refused at once', async () => {
    const dir = workspace();
    const orch = await start(dir, { env: { MCP_AGENT_ORCHESTRATOR_MAX_PARALLEL: '2' } });
    const sent = api.requests.length;
    // Each reply is held until both sessions have asked: run one after the other, they would never finish.
    const both = api.waitForRequests(sent + 2);
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    reply = (body) => ({ text: `done: ${lastUserText(body).slice(-1)}`, gate: Promise.all([both, released]) });
    const a = orch.call('start_agent', { session_name: 'par-a', prompt: 'task A' });
    const b = orch.call('start_agent', { session_name: 'par-b', prompt: 'task B' });
    await both;
    const third = await orch.call('start_agent', { session_name: 'par-c', prompt: 'task C' });
    assert.equal(third.isError, true);
    assert.match(textOf(third), /2 sessions are running already.*MCP_AGENT_ORCHESTRATOR_MAX_PARALLEL=2/);
    const busy = await orch.call('resume_agent', { session_name: 'par-a', prompt: 'again' });
    assert.equal(busy.isError, true);
    assert.match(textOf(busy), /running a turn now/);
    const clean = await orch.call('clean_sessions', { confirm: true });
    assert.deepEqual((clean.structuredContent as { kept_running: string[] }).kept_running.sort(), ['par-a', 'par-b']);
    assert.ok(existsSync(sessionPath(home, dir, 'par-a', 'session.json')), 'a running session is never deleted');
    release();
    const [ra, rb] = await Promise.all([a, b]);
    assert.match(textOf(ra), /done: A/);
    assert.match(textOf(rb), /done: B/);
    assert.equal(existsSync(sessionPath(home, dir, 'par-c')), false);
  });

  test('hostile session and agent names never leave their folders', async () => {
    const dir = workspace();
    const outside = workspace();
    const orch = await start(dir);
    reply = () => ({ text: 'ok' });
    for (const name of ['../escape', '..', '.', 'a/b', 'a\\b', '', 'x'.repeat(61), 'nul\0x', '%2e%2e', '/etc/passwd', ' spaced ', 'list', 'CON', 'lpt1']) {
      for (const [tool, args] of [
        ['start_agent', { session_name: name, prompt: 'p' }],
        ['resume_agent', { session_name: name, prompt: 'p' }],
        ['get_session', { session_name: name }],
        ['clean_sessions', { confirm: true, session_name: name }],
      ] as const) {
        const r = await orch.call(tool, args);
        assert.equal(r.isError, true, `${tool} ${JSON.stringify(name)}: ${textOf(r)}`);
      }
    }
    const badAgent = await orch.call('start_agent', { session_name: 'agent-escape', agent_name: '../../etc/passwd', prompt: 'p' });
    assert.match(textOf(badAgent), /no agent named/);
    await assert.rejects(orch.client.readResource({ uri: 'sessions://..%2F..%2Fetc' }));

    // A session folder in the sessions folder that is a symlink leading out is never used.
    const r = await orch.call('start_agent', { session_name: 'via-link', prompt: 'p' });
    assert.ok(!r.isError, textOf(r));
    rmSync(sessionPath(home, dir, 'via-link'), { recursive: true });
    symlinkSync(outside, sessionPath(home, dir, 'via-link'));
    const resumed = await orch.call('resume_agent', { session_name: 'via-link', prompt: 'p' });
    assert.equal(resumed.isError, true, textOf(resumed));
    assert.match(textOf(resumed), /is not a folder \(a symlink or a file\); it is not used/);
    assert.deepEqual(readdirSync(outside), []);

    // Agent definitions behind a symlink leading out are not read, and the reason is listed.
    const elsewhere = workspace();
    writeFileSync(join(elsewhere, 'evil.md'), '---\nname: evil\ndescription: from outside\n---\nbody\n');
    mkdirSync(join(dir, '.claude'), { recursive: true });
    symlinkSync(elsewhere, join(dir, '.claude', 'agents'));
    const agents = (await orch.call('list_agents', { response_format: 'json' })).structuredContent as {
      agents: Array<{ name: string }>;
      broken: Array<{ file: string; why: string }>;
    };
    assert.deepEqual(
      agents.agents.map((a) => a.name),
      ['general'],
    );
    assert.match(agents.broken.find((b) => b.file === '.claude/agents')?.why ?? '', /outside the workspace/);
  });

  test('the servers the orchestrator starts hold no Anthropic key and exit with it', { skip: process.platform !== 'linux' }, async () => {
    const dir = workspace();
    const orch = await startOrchestrator(dir, { env: { ANTHROPIC_API_KEY: 'sk-ant-orchestrator-secret', ANTHROPIC_BASE_URL: api.url, MCP_AGENT_HOME: home } });
    reply = () => ({ text: 'ok' });
    const r = await orch.call('start_agent', { session_name: 'env', prompt: 'p' });
    assert.ok(!r.isError, textOf(r));
    const children = childrenOf(orch.pid);
    assert.equal(children.length, 3, 'workspace, web and research, started for the run');
    for (const pid of children) {
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8');
      assert.match(env, /ELECTRON_RUN_AS_NODE=1/);
      assert.doesNotMatch(env, /sk-ant-orchestrator-secret|ANTHROPIC/);
    }
    await orch.close();
    assert.deepEqual(children.filter(isAlive), [], 'closed before the orchestrator exited');
  });

  test('without a key every tool that runs agents says how to set it; list_agents lists them; the server keeps serving', { timeout: ENOUGH }, async () => {
    const dir = workspace();
    const orch = await startOrchestrator(dir, { env: { ANTHROPIC_BASE_URL: api.url, MCP_AGENT_HOME: home } });
    open.push(orch);
    const { tools } = await orch.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'clean_sessions',
      'get_session',
      'list_agents',
      'list_sessions',
      'query',
      'resume_agent',
      'start_agent',
    ]);
    const args: Record<string, Record<string, unknown>> = {
      start_agent: { session_name: 's', prompt: 'p' },
      resume_agent: { session_name: 's', prompt: 'p' },
      get_session: { session_name: 's' },
      clean_sessions: { confirm: true },
      query: { prompt: 'p' },
    };
    for (const t of tools.filter((t) => t.name !== 'list_agents')) {
      const r = await orch.call(t.name, args[t.name] ?? {});
      assert.equal(r.isError, true, t.name);
      assert.match(textOf(r), /ANTHROPIC_API_KEY/, t.name);
    }
    // Listing the agents runs none: it needs no key.
    const listed = await orch.call('list_agents', {});
    assert.notEqual(listed.isError, true, textOf(listed));
    assert.match(textOf(listed), /general/);
    assert.equal(existsSync(join(dir, '.mcp-agent')), false, 'nothing was written');
    assert.equal(existsSync(sessionPath(home, dir)), false, 'nor beside the chats');
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
