// On a terminal a question only takes what is typed after it was shown: a `y⏎` typed while the model
// was still thinking must not approve a write whose diff nobody has seen, half a word typed during a
// turn must not be glued to the next message, and the REPL's prompt is readline's own, so it survives
// Ctrl+C and Up-arrow. dist/cli.js on a real pseudo-terminal (script(1)) against the fake Messages API.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { haveScript } from './helpers/cli-process';
import { cliOnPty, stopPtyClis } from './helpers/pty-cli';
import { scaled } from '../support/until';

const T = { skip: !haveScript() && 'script(1) is not installed', timeout: scaled(180_000) };
const UP = '\x1b[A';
const CTRL_C = '\x03';

/** A reply held until the test lets it go: the model "still thinking" while the person types. */
let held: { promise: Promise<void>; release: () => void } | undefined;
function hold(): () => void {
  let release = (): void => undefined;
  const promise = new Promise<void>((r) => (release = r));
  held = { promise, release };
  return release;
}

function model(body: MessagesBody): Reply {
  if (isToolResultTurn(body)) return { text: `Done: ${lastUserText(body).slice(0, 60)}` };
  const text = lastUserText(body);
  const gate = held?.promise;
  held = undefined;
  if (text.startsWith('write '))
    return { text: 'Writing it.', toolUses: [{ name: 'workspace__write_file', input: { path: text.slice(6), content: 'x\n' } }], gate };
  if (text.startsWith('slow')) return { text: 'Slow reply.', gate };
  return { text: `You said: ${text}` };
}

describe('type-ahead on a terminal', () => {
  const api = new FakeAnthropicApi(model);
  let env: Record<string, string>;
  let ws: string;
  before(async () => {
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: await api.start() };
    ws = mkdtempSync(join(tmpdir(), 'cli-type-ahead-'));
  });
  after(async () => {
    stopPtyClis();
    await api.stop();
    rmSync(ws, { recursive: true, force: true });
  });

  test('"y⏎" and "a⏎" typed while the model thinks do not answer the write_file question asked later', T, async () => {
    const cli = cliOnPty(['--workspace', ws], env);
    await cli.until('You:');
    const release = hold();
    const sent = api.requests.length;
    cli.type('write notes.txt\r');
    await api.waitForRequests(sent + 1);
    cli.type('y\r');
    cli.type('a\r');
    cli.type('zq');
    await cli.until('zq'); // echoed: every key before it has reached the CLI
    release();
    await cli.until('Allow?');
    const question = cli.output().lastIndexOf('Allow?');
    assert.match(cli.output(), /\+\+\+ b\/notes\.txt/, 'the diff was shown');
    cli.type('n\r');
    await cli.until('Done: ');
    assert.equal(existsSync(join(ws, 'notes.txt')), false, 'the write was not approved');
    assert.match(cli.output(), /denied this tool call/);
    assert.match(cli.output().slice(0, question), /\[ignored what was typed before this question: "y", "a", "zq"\]/);
    await cli.until('You:', 2);
    cli.type('exit\r');
    assert.equal(await cli.exited, 0);
  });

  test('Ctrl+C at an approval question withdraws it: the next line is a message, not its answer', T, async () => {
    const cli = cliOnPty(['--workspace', ws], env);
    await cli.until('You:');
    const sent = api.requests.length;
    cli.type('write stopped.txt\r');
    await cli.until('Allow?');
    cli.type(CTRL_C);
    await cli.until('[stopped]');
    await cli.until('You:', 2);
    cli.type('after the stop\r');
    await cli.until('You said: after the stop');
    assert.equal(lastUserText(api.requests.at(-1)!.body), 'after the stop');
    assert.equal(api.requests.length, sent + 2);
    assert.equal(existsSync(join(ws, 'stopped.txt')), false);
    // What is typed before the prompt shows is type-ahead, dropped: wait for it.
    await cli.until('You:', 3);
    cli.type('exit\r');
    assert.equal(await cli.exited, 0);
  });

  test('text half typed during a turn is not glued to the next message', T, async () => {
    const cli = cliOnPty(['--workspace', ws], env);
    await cli.until('You:');
    const release = hold();
    const sent = api.requests.length;
    cli.type('slow please\r');
    await api.waitForRequests(sent + 1);
    cli.type('abc');
    await cli.until('abc');
    release();
    await cli.until('Slow reply.');
    await cli.until('You:', 2);
    cli.type('hello\r');
    await api.waitForRequests(sent + 2);
    assert.equal(lastUserText(api.requests[sent + 1]!.body), 'hello');
    assert.match(cli.output(), /\[ignored what was typed before this question: "abc"\]/);
    await cli.until('You:', 3);
    cli.type('exit\r');
    assert.equal(await cli.exited, 0);
  });

  test('the prompt survives Ctrl+C and Up-arrow', T, async () => {
    const cli = cliOnPty(['--workspace', ws], env, 'xterm');
    await cli.until('You: ');
    await cli.untilLine('You: ');
    cli.type('first message\r');
    await cli.until('You said: first message');
    await cli.untilLine('You: ');

    cli.type('half typed');
    await cli.untilLine('You: half typed');
    cli.type(CTRL_C);
    await cli.untilLine('You: ');
    cli.type(UP);
    await cli.untilLine('You: first message');
    cli.type(CTRL_C);
    await cli.untilLine('You: ');
    cli.type(CTRL_C);
    await cli.until('press Ctrl+C again to exit');
    await cli.untilLine('You: ');
    cli.type('exit\r');
    assert.equal(await cli.exited, 0);
  });

  test('an Up-arrow during a turn is not glued to the "exit" typed after it', T, async () => {
    const cli = cliOnPty(['--workspace', ws], env, 'xterm');
    await cli.until('You: ');
    await cli.untilLine('You: ');
    const release = hold();
    const sent = api.requests.length;
    cli.type('slow please\r');
    await api.waitForRequests(sent + 1);
    const shown = cli.count('slow please');
    cli.type(UP);
    await cli.until('slow please', shown + 1); // readline drew the recalled line
    release();
    await cli.until('Slow reply.');
    await cli.untilLine('You: ');
    cli.type('exit\r');
    const outcome = await Promise.race([cli.exited.then((code) => `exit ${code}`), api.waitForRequests(sent + 2).then(() => 'sent')]);
    assert.equal(outcome, 'exit 0', `"exit" left the REPL (sent instead: ${JSON.stringify(api.requests.at(-1) && lastUserText(api.requests.at(-1)!.body))})`);
    assert.match(cli.output(), /\[ignored what was typed before this question: "slow please"\]/);
  });
});
