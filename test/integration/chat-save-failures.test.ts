// Nothing lost without a word: a chat that cannot be written is reported by the CLI (dist/cli.js, against the fake
// Messages API), which exits non-zero and leaves no temporary files; the next open says what happened, truly; a line
// of a chat's file that cannot be read is reported and kept aside. The full disk is a real one (a 64 KiB tmpfs) where
// this may mount one; the injected error (a limit on the size of a file, ulimit -f) runs everywhere.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatHistory } from '../../src/core/chat/chat-history';
import { chatsDir } from '../../src/core/chat/chat-home';
import type { ChatEvent } from '../../src/common/protocol';
import { FakeAnthropicApi, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { CLI, cli } from './helpers/cli-process';
import { scaled } from '../support/until';

const T = { timeout: scaled(120_000) };

/** A message with "long" in it gets a long answer: more than a nearly full disk has room for. */
function script(body: MessagesBody): Reply {
  const last = lastUserText(body);
  return { text: last.includes('long') ? `a long answer: ${'words '.repeat(6000)}` : `answer to: ${last}` };
}

/**
 * The CLI under a 32 KiB limit on the size of a file it writes (ulimit -f, in 512-byte blocks), with the signal that
 * would end it ignored: a write past it fails with EFBIG, as on a full disk. Spawned, not spawnSync: the fake API
 * answers from this process.
 */
function sizeLimited(env: Record<string, string>, args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn('sh', ['-c', 'trap "" XFSZ; ulimit -f 64; exec "$0" "$@"', process.execPath, CLI, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** Every file under `dir` whose name ends in .tmp. */
function tempFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.tmp'));
}

describe('a chat that cannot be written', () => {
  const api = new FakeAnthropicApi(script);
  let url: string;
  const dirs: string[] = [];
  before(async () => {
    url = await api.start();
  });
  after(async () => {
    await api.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  function place(home?: string) {
    const ws = mkdtempSync(join(tmpdir(), 'save-ws-'));
    dirs.push(ws);
    if (!home) {
      home = mkdtempSync(join(tmpdir(), 'save-home-'));
      dirs.push(home);
    }
    const env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: url, MCP_AGENT_HOME: home };
    const history = new ChatHistory(chatsDir(ws, { MCP_AGENT_HOME: home }));
    const run = (...args: string[]) => cli(['--workspace', ws, ...args], env);
    return { ws, home, history, run, env };
  }

  async function firstChat(run: (...args: string[]) => ReturnType<typeof cli>): Promise<string> {
    const first = await run('hello');
    assert.equal(first.code, 0, first.stderr);
    const id = /chat ([a-z0-9]+) saved/.exec(first.stderr)?.[1];
    assert.ok(id, first.stderr);
    return id;
  }

  const events = (history: ChatHistory, id: string): Promise<ChatEvent[]> => history.store(id).events.load();

  test('a write that fails (a file size limit) is said, the run exits non-zero, no .tmp is left, and the next open says why the turn is cut', T, async () => {
    const { home, history, run, env, ws } = place();
    const id = await firstChat(run);
    // The long answer does not fit under the limit.
    const limited = await sizeLimited(env, ['--workspace', ws, '--continue', 'a long one please']);
    assert.notEqual(limited.code, 0, limited.stderr);
    assert.match(limited.stderr, new RegExp(`mcp-agent: chat ${id} could not be saved: .*EFBIG`));
    assert.doesNotMatch(limited.stderr, /saved; go on with/);
    assert.deepEqual(tempFiles(home), []);

    const next = await run('--continue', 'still there?');
    assert.equal(next.code, 0, next.stderr);
    assert.match(next.stdout, /\[Not saved: this chat could not be written to disk at [^\]]*EFBIG[^\]]*, so what came after is missing\.\]/);
    assert.doesNotMatch(next.stdout, /Interrupted/);
    const stopped = (await events(history, id)).filter((e) => e.kind === 'turn_end' && e.status === 'stopped');
    assert.equal(stopped.length, 1, JSON.stringify(stopped));
  });

  test('a line of a chat that cannot be read is named, kept aside, and still kept after the chat is written again', T, async () => {
    const { history, run } = place();
    const id = await firstChat(run);
    const file = join(history.chatDir(id), 'events.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.splice(1, 0, '{"kind":"user","text":"half a line that a hand ch');
    writeFileSync(file, lines.join('\n'));

    const next = await run('--continue', 'go on');
    assert.equal(next.code, 0, next.stderr);
    assert.match(
      next.stdout,
      /\[Line 2 of events\.jsonl \(in [^)]+\) could not be read: left out of this chat, and kept in events\.jsonl\.unreadable beside it\.\]/,
    );
    const again = await run('--continue', 'once more');
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stdout, /could not be read/, 'said once');
    const aside = readFileSync(`${file}.unreadable`, 'utf8');
    assert.match(aside, /half a line that a hand ch/);
    assert.equal(aside.trim().split('\n').length, 1);
    assert.deepEqual(
      (await events(history, id)).flatMap((e) => (e.kind === 'user' ? [e.text] : [])),
      ['hello', 'go on', 'once more'],
    );
  });

  test('a full disk (a 64 KiB tmpfs): the turn that did not fit is said to be unsaved, then and when the chat is opened again', T, async (t) => {
    const mountPoint = mkdtempSync(join(tmpdir(), 'save-tmpfs-'));
    dirs.push(mountPoint);
    const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mountPoint], { encoding: 'utf8' });
    if (mount.status !== 0) {
      t.skip(`a tmpfs cannot be mounted here (${(mount.stderr || mount.error?.message || '').trim()}); the injected error above covers the same path`);
      return;
    }
    t.after(() => void spawnSync('umount', [mountPoint]));
    const { home, history, run } = place(mountPoint);
    const id = await firstChat(run);
    // Fill the disk, then free one page: enough for small files, not for the long answer.
    const fill = join(home, 'fill');
    mkdirSync(fill);
    let n = 0;
    for (;;) {
      try {
        writeFileSync(join(fill, String(n++)), Buffer.alloc(4096));
      } catch {
        break;
      }
    }
    rmSync(join(fill, '0'));

    const failed = await run('--continue', 'a long one please');
    assert.notEqual(failed.code, 0, failed.stderr);
    assert.match(failed.stderr, new RegExp(`mcp-agent: chat ${id} could not be saved: .*ENOSPC`));
    assert.deepEqual(tempFiles(home), []);

    rmSync(fill, { recursive: true });
    const next = await run('--continue', 'what happened?');
    assert.equal(next.code, 0, next.stderr);
    const stopped = (await events(history, id)).filter((e) => e.kind === 'turn_end' && e.status === 'stopped');
    assert.equal(stopped.length, 1, JSON.stringify(stopped));
    assert.match(stopped[0]!.kind === 'turn_end' ? (stopped[0]!.error ?? '') : '', /^Not saved: this chat could not be written to disk/);
  });
});
