import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { cli } from './helpers/cli-process';

/** The model writes the file named in the prompt, then says what happened with the result. */
function writer(body: MessagesBody): Reply {
  if (isToolResultTurn(body)) return { text: `Result: ${lastUserText(body)}` };
  const match = /write (\S+) saying (.+)/.exec(lastUserText(body));
  if (!match) return { text: `You said: ${lastUserText(body)}` };
  return { toolUses: [{ name: 'workspace__write_file', input: { path: match[1], content: match[2] } }] };
}

/** Sequences a terminal acts on: clipboard writes, titles, screen clears, hidden text, C1 controls, overwrites, BiDi reordering. */
const HOSTILE = [
  '\x1b]52;c;ZXZpbA==\x07', // OSC 52: put "evil" on the clipboard
  '\x1b]0;pwned\x07', // window title
  '\x1b[2J\x1b[H', // clear the screen, cursor home
  '\x1b[8mhidden\x1b[0m', // SGR 8: invisible text
  '\u009b31mC1 CSI', // the one-character CSI
  '\u009d0;c1 title\u009c', // C1 OSC ... ST
  'safe\rEVIL', // CR: overwrite what was printed
  'abc\b\b\bXYZ', // backspaces
  '\u202eevil reversed\u202c', // BiDi override
  '\u2066isolate\u2069',
  '\x7fdel',
].join(' | ');

/** What only a terminal's own control output would hold; the CLI without a TTY writes none. */
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

describe('the CLI (dist/cli.js) with the real workspace server and the fake API', () => {
  const api = new FakeAnthropicApi(writer);
  let env: Record<string, string>;
  let ws: string;
  before(async () => {
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: await api.start() };
    ws = mkdtempSync(join(tmpdir(), 'cli-ws-'));
  });
  after(async () => {
    await api.stop();
    rmSync(ws, { recursive: true, force: true });
  });

  test('one-shot with --yes writes the file and exits 0', async () => {
    const r = await cli(['--workspace', ws, '--yes', 'write hello.txt saying hi there'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(join(ws, 'hello.txt'), 'utf8'), 'hi there');
    assert.match(r.stdout, /\[tool\] workspace__write_file/);
    assert.match(r.stdout, /\[result\] workspace__write_file/);
    assert.match(r.stdout, /Result: /);
  });

  test('without --yes the approval is asked on the terminal; "n" denies', async () => {
    const r = await cli(['--workspace', ws, 'write denied.txt saying no'], env, 'n\n');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Write denied\.txt in the workspace/);
    assert.match(r.stdout, /Allow\?/);
    assert.equal(existsSync(join(ws, 'denied.txt')), false);
    assert.match(r.stdout, /denied this tool call/);
  });

  test('"y" approves', async () => {
    const r = await cli(['--workspace', ws, 'write approved.txt saying yes'], env, 'y\n');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(join(ws, 'approved.txt'), 'utf8'), 'yes');
  });

  test('the REPL answers each line until exit', async () => {
    const r = await cli(['--workspace', ws], env, 'first question\nsecond question\nexit\n');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /You: /);
    assert.match(r.stdout, /You said: first question/);
    assert.match(r.stdout, /You said: second question/);
  });

  test('no API key: a clear message and a non-zero exit', async () => {
    const r = await cli(['--workspace', ws, 'hi'], { ANTHROPIC_BASE_URL: env.ANTHROPIC_BASE_URL });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /ANTHROPIC_API_KEY/);
  });

  test('a workspace that is not a directory: usage and a non-zero exit', async () => {
    const r = await cli(['--workspace', join(ws, 'nope'), 'hi'], env);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /not a directory/);
    assert.match(r.stderr, /usage:/);
  });

  test('an unknown option: usage and a non-zero exit', async () => {
    const r = await cli(['--frobnicate'], env);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown option --frobnicate/);
  });

  test('escape sequences in model text, tool input, file contents and results reach the terminal escaped', async () => {
    writeFileSync(join(ws, 'evil.txt'), `${HOSTILE}\n`);
    api.setScript((body) => {
      if (isToolResultTurn(body)) return { text: `The file says: ${lastUserText(body)}`, chunk: 3 };
      // small chunks: every sequence arrives split across several deltas
      return { text: HOSTILE, chunk: 3, toolUses: [{ name: 'workspace__read_file', input: { path: 'evil.txt', note: HOSTILE } }] };
    });
    try {
      const r = await cli(['--workspace', ws, '--yes', 'read evil.txt'], env);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.raw.indexOf(0x1b), -1, 'no ESC byte at all');
      assert.doesNotMatch(r.stdout, CONTROLS);
      const shownOsc = '\\u001b]52;c;ZXZpbA==\\u0007';
      assert.ok(r.stdout.startsWith(`${shownOsc} | `), 'the streamed text shows the OSC 52 write, escaped');
      assert.ok(
        r.stdout.split('\n').some((l) => /^\[result\] workspace__read_file \(\d+ ms\) /.test(l) && l.includes(shownOsc)),
        'so does the result',
      );
      assert.ok(r.stdout.includes(`The file says: ${shownOsc}`), 'and the file contents the model repeats');
      assert.ok(r.stdout.includes('safe\\rEVIL') && r.stdout.includes('\\u009b31mC1 CSI') && r.stdout.includes('\\u202eevil'));
      assert.match(r.stdout, /\[result\] workspace__read_file/);
      assert.match(r.stdout, /The file says: /);
    } finally {
      api.setScript(writer);
    }
  });

  test('an approval preview holding escape sequences is printed escaped', async () => {
    const r = await cli(['--workspace', ws, `write preview.txt saying ${HOSTILE}`], env, 'n\n');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Allow\?/);
    assert.equal(r.raw.indexOf(0x1b), -1);
    assert.doesNotMatch(r.stdout, CONTROLS);
    assert.ok(r.stdout.includes('+\\u001b]52;c;ZXZpbA==\\u0007'), 'the diff shows the sequence');
  });

  test('a file change is asked as a unified diff of the file', async () => {
    writeFileSync(join(ws, 'story.txt'), 'line one\nline two\nline three\n');
    const r = await cli(['--workspace', ws, 'write story.txt saying line one'], env, 'n\n');
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /--- a\/story\.txt\s*\n\+\+\+ b\/story\.txt\s*\n@@ -1,3 \+1(,1)? @@\n-line one\n-line two\n-line three\n\+line one\n\\ No newline at end of file\n/,
    );
    assert.match(r.stdout, /Overwrites all 3 lines/);
  });

  test('an API error message holding escape sequences is printed escaped', async () => {
    api.setScript([{ error: 400, message: 'bad \x1b]0;pwned\x07 request\u009b2J' }]);
    try {
      const r = await cli(['--workspace', ws, 'hi'], env);
      assert.equal(r.code, 1);
      assert.equal(r.raw.indexOf(0x1b), -1);
      assert.doesNotMatch(r.stdout, CONTROLS);
      assert.equal(r.stderr.indexOf('\x1b'), -1);
      assert.ok(r.stderr.includes('refused the request (400): bad \\u001b]0;pwned\\u0007 request\\u009b2J'), r.stderr);
    } finally {
      api.setScript(writer);
    }
  });

  test('a rejected key ends with a clear message and exit 1', async () => {
    api.setScript([{ error: 401, message: 'invalid x-api-key' }]);
    try {
      const r = await cli(['--workspace', ws, 'hi'], env);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /rejected the API key \(401\)/);
    } finally {
      api.setScript(writer);
    }
  });
});
