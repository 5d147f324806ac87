// Ctrl+C and Escape in the CLI on a real pseudo-terminal (script(1)), as in the chat: they stop the running
// turn and the session goes on; at the prompt Ctrl+C clears the line, and at an empty prompt it says how to
// leave and leaves on the second press.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAnthropicApi, lastUserText } from '../fakes/anthropic-api';
import { CHATS_HOME, CLI, haveScript } from './helpers/cli-process';

const api = new FakeAnthropicApi((body) => (/hang/.test(lastUserText(body)) ? { hang: true } : { text: `You said: ${lastUserText(body)}` }));
let ws: string;
before(async () => {
  await api.start();
  ws = mkdtempSync(join(tmpdir(), 'cli-interrupts-'));
});
after(async () => {
  await api.stop();
  rmSync(ws, { recursive: true, force: true });
});

test(
  'Ctrl+C and Escape stop a turn and keep the session; Ctrl+C twice at an empty prompt leaves',
  { skip: !haveScript() && 'script(1) is not installed', timeout: 90_000 },
  async () => {
    const command = [process.execPath, CLI, '--workspace', ws].map((a) => `'${a}'`).join(' ');
    const child = spawn('script', ['-qefc', command, '/dev/null'], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        MCP_AGENT_HOME: CHATS_HOME,
        TERM: 'dumb',
        ANTHROPIC_API_KEY: 'sk-test',
        ANTHROPIC_BASE_URL: api.url,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    const seen: Array<{ text: string; count: number; resolve: () => void }> = [];
    const check = (): void => {
      for (const w of [...seen]) {
        if (out.split(w.text).length - 1 < w.count) continue;
        seen.splice(seen.indexOf(w), 1);
        w.resolve();
      }
    };
    child.stdout.on('data', (d: Buffer) => ((out += d.toString('utf8')), check()));
    child.stderr.on('data', (d: Buffer) => ((out += d.toString('utf8')), check()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    /** Resolves once `text` has appeared `count` times in what the CLI printed. */
    const until = (text: string, count = 1): Promise<void> => new Promise((resolve) => (seen.push({ text, count, resolve }), check()));

    await until('You:');
    child.stdin.write('please hang\r');
    await api.waitForRequests(1);
    child.stdin.write('\x03');
    await until('[stopped]');
    await until('You:', 2);

    child.stdin.write('hang again\r');
    await api.waitForRequests(2);
    child.stdin.write('\x1b');
    await until('[stopped]', 2);
    await until('You:', 3);

    child.stdin.write('typed, then dropped');
    child.stdin.write('\x03');
    // Ctrl+C draws the prompt again; what is typed before it shows would be dropped as type-ahead, so wait for it.
    await until('You:', 4);
    child.stdin.write('what now?\r');
    await until('You said: what now?');
    assert.doesNotMatch(lastUserText(api.requests.at(-1)!.body), /dropped/, 'Ctrl+C dropped what was typed');

    await until('You:', 5);
    child.stdin.write('\x03');
    await until('press Ctrl+C again to exit');
    assert.equal(child.exitCode, null, 'one Ctrl+C at an empty prompt only says how to leave');
    child.stdin.write('\x03');
    assert.equal(await exited, 0);
    assert.match(out, /chat [a-z0-9]+ saved/);
  },
);
