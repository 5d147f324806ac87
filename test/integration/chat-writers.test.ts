// One writer per chat: two real CLI processes (dist/cli.js, against the fake Messages API) on one chat. The second
// finds the first writing it, says so, and goes on in a copy; the chat's file holds only the first's turns, each
// ended once. A lock left by a killed process does not hold the chat: the next one takes it and says why the turn
// it left is open.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatHistory } from '../../src/core/chat/chat-history';
import { chatsDir } from '../../src/core/chat/chat-home';
import type { ChatEvent } from '../../src/common/protocol';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { CLI, cli } from './helpers/cli-process';
import { scaled } from '../support/until';

const T = { timeout: scaled(120_000) };

/**
 * A message with "hang" in it gets a call of a tool (so the turn has begun in the chat's file: its card is there),
 * and then a reply that starts and never ends: its turn is running for as long as the test wants.
 */
function script(body: MessagesBody): Reply {
  const last = lastUserText(body);
  if (isToolResultTurn(body)) return { hang: true };
  return last.includes('hang') ? { toolUses: [{ name: 'workspace__list_directory', input: { path: '.' } }] } : { text: `answer to: ${last}` };
}

describe('two front ends on one chat', () => {
  const api = new FakeAnthropicApi(script);
  let env: Record<string, string>;
  let ws: string;
  let home: string;
  const running: ChildProcessWithoutNullStreams[] = [];
  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'writers-home-'));
    ws = mkdtempSync(join(tmpdir(), 'writers-ws-'));
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: await api.start(), MCP_AGENT_HOME: home };
  });
  after(async () => {
    for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await api.stop();
    rmSync(ws, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  const history = (): ChatHistory => new ChatHistory(chatsDir(ws, { MCP_AGENT_HOME: home }));
  const eventsOf = (id: string): Promise<ChatEvent[]> => history().store(id).events.load();

  /** The CLI's REPL continuing the latest chat, sent `line`; resolves once its second request reached the fake API (its turn is running, its tool call saved). */
  async function replMidTurn(line: string): Promise<{ child: ChildProcessWithoutNullStreams; output: () => string }> {
    const requests = api.requests.length;
    const child = spawn(process.execPath, [CLI, '--workspace', ws, '--continue'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    running.push(child);
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.stdin.write(`${line}\n`);
    await api.waitForRequests(requests + 2);
    return { child, output: () => output };
  }

  async function startChat(text: string): Promise<string> {
    const first = await cli(['--workspace', ws, text], env);
    assert.equal(first.code, 0, first.stderr);
    const id = /chat ([a-z0-9]+) saved/.exec(first.stderr)?.[1];
    assert.ok(id, first.stderr);
    return id;
  }

  test('the second process says the chat is being written and goes on in a copy; the chat is not garbled', T, async () => {
    const id = await startChat('first message');
    const writer = await replMidTurn('please hang');

    const second = await cli(['--workspace', ws, '--continue', 'second message'], env);
    assert.equal(second.code, 0, second.stderr);
    const said = new RegExp(`chat ${id} is being written by the CLI \\(process ${writer.child.pid}[^)]*\\); going on in a copy of it, chat ([a-z0-9]+)`);
    const copy = said.exec(second.stderr)?.[1];
    assert.ok(copy, second.stderr);
    assert.notEqual(copy, id);
    assert.match(second.stdout, /answer to: second message/);

    writer.child.kill('SIGTERM');
    await once(writer.child, 'exit');
    assert.match(writer.output(), new RegExp(`chat ${id} saved`), writer.output());

    const events = await eventsOf(id);
    const users = events.flatMap((e) => (e.kind === 'user' ? [e.text] : []));
    assert.deepEqual(users, ['first message', 'please hang'], 'only the writer of the chat wrote it');
    const ends = events.filter((e) => e.kind === 'turn_end');
    assert.equal(ends.length, 2, JSON.stringify(ends));
    for (const turn of new Set(events.flatMap((e) => ('turnId' in e ? [e.turnId] : []))))
      assert.equal(ends.filter((e) => e.kind === 'turn_end' && e.turnId === turn).length, 1, `turn ${turn} ended once`);

    const copied = await eventsOf(copy);
    assert.deepEqual(
      copied.flatMap((e) => (e.kind === 'user' ? [e.text] : [])),
      ['first message', 'please hang', 'second message'],
    );
    const cut = copied.find((e) => e.kind === 'turn_end' && e.status === 'stopped');
    assert.match(cut?.kind === 'turn_end' ? (cut.error ?? '') : '', new RegExp(`Copied while this turn was still running in the CLI .*chat ${id}`));
    assert.equal(existsSync(join(history().chatDir(id), 'writer.lock')), false, 'the writer let go of the chat');
  });

  test('a lock left by a killed process does not hold the chat: the next one takes it over and says why the turn ended', T, async () => {
    const id = await startChat('before the crash');
    const writer = await replMidTurn('hang until killed');
    assert.equal(existsSync(join(history().chatDir(id), 'writer.lock')), true, 'the running writer holds the chat');
    writer.child.kill('SIGKILL');
    await once(writer.child, 'exit');

    const next = await cli(['--workspace', ws, '--continue', 'after the crash'], env);
    assert.equal(next.code, 0, next.stderr);
    assert.doesNotMatch(next.stderr, /being written/);
    assert.match(next.stdout, new RegExp(`continuing "before the crash" \\(${id}\\)`));
    assert.match(next.stdout, /answer to: .*after the crash/);
    const events = await eventsOf(id);
    const stopped = events.find((e) => e.kind === 'turn_end' && e.status === 'stopped');
    assert.match(
      stopped?.kind === 'turn_end' ? (stopped.error ?? '') : '',
      new RegExp(`^Interrupted: the CLI \\(process ${writer.child.pid}[^)]*\\) ended during this turn\\.$`),
    );
  });
});
