// Ctrl+C and Escape in the CLI on a real pseudo-terminal (script(1)), as in the chat: they stop the running
// turn and the session goes on; at the prompt Ctrl+C clears the line, and at an empty prompt it says how to
// leave and leaves on the second press.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAnthropicApi, lastUserText } from '../fakes/anthropic-api';
import { haveScript } from './helpers/cli-process';
import { cliOnPty, stopPtyClis } from './helpers/pty-cli';
import { scaled } from '../support/until';

const api = new FakeAnthropicApi((body) => (/hang/.test(lastUserText(body)) ? { hang: true } : { text: `You said: ${lastUserText(body)}` }));
let ws: string;
before(async () => {
  await api.start();
  ws = mkdtempSync(join(tmpdir(), 'cli-interrupts-'));
});
after(async () => {
  stopPtyClis();
  await api.stop();
  rmSync(ws, { recursive: true, force: true });
});

test(
  'Ctrl+C and Escape stop a turn and keep the session; Ctrl+C twice at an empty prompt leaves',
  { skip: !haveScript() && 'script(1) is not installed', timeout: scaled(90_000) },
  async () => {
    const cli = cliOnPty(['--workspace', ws], { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: api.url });
    let gone = false;
    void cli.exited.then(() => (gone = true));

    await cli.until('You:');
    cli.type('please hang\r');
    await api.waitForRequests(1);
    cli.type('\x03');
    await cli.until('[stopped]');
    await cli.until('You:', 2);

    cli.type('hang again\r');
    await api.waitForRequests(2);
    cli.type('\x1b');
    await cli.until('[stopped]', 2);
    await cli.until('You:', 3);

    cli.type('typed, then dropped');
    cli.type('\x03');
    // Ctrl+C draws the prompt again; what is typed before it shows would be dropped as type-ahead, so wait for it.
    await cli.until('You:', 4);
    cli.type('what now?\r');
    await cli.until('You said: what now?');
    assert.doesNotMatch(lastUserText(api.requests.at(-1)!.body), /dropped/, 'Ctrl+C dropped what was typed');

    await cli.until('You:', 5);
    cli.type('\x03');
    await cli.until('press Ctrl+C again to exit');
    assert.equal(gone, false, 'one Ctrl+C at an empty prompt only says how to leave');
    cli.type('\x03');
    assert.equal(await cli.exited, 0);
    assert.match(cli.output(), /chat [a-z0-9]+ saved/);
  },
);
