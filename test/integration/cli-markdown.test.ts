// Replies are rendered as Markdown in the terminal (marked-terminal), coloured only on a terminal;
// --plain prints them as written. What the model writes can still never reach the terminal as an
// escape sequence: only the renderer's own styling does.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAnthropicApi } from '../fakes/anthropic-api';
import { haveScript, runCli, runCliOnTerminal } from './helpers/cli-process';
import { scaled } from '../support/until';

const REPLY = [
  '# Books',
  '',
  'Some **bold** text and `code`, see [the docs](https://example.com/d).',
  '',
  '- item one',
  '- item two',
  '',
  '```sql',
  'SELECT 1;',
  '',
  'SELECT 2;',
  '```',
  '',
  'A sneaky \u001b]52;c;cHduZWQ=\u0007 clipboard write and \u001b[2J a clear.',
  '',
].join('\n');

describe('the CLI renders Markdown', () => {
  // Small chunks: a block must come out whole however the stream cuts it.
  const api = new FakeAnthropicApi(() => ({ text: REPLY, chunk: 7 }));
  let env: Record<string, string>;
  let ws: string;
  before(async () => {
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: await api.start() };
    ws = mkdtempSync(join(tmpdir(), 'cli-md-'));
  });
  after(async () => {
    await api.stop();
    rmSync(ws, { recursive: true, force: true });
  });

  test('piped: rendered, without a single escape sequence', async () => {
    const r = await runCli(['--workspace', ws, 'hi'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^# Books\n\nSome bold text and code, see the docs \(https:\/\/example\.com\/d\)\.\n\n {4}\* item one\n {4}\* item two\n/m);
    assert.match(r.stdout, /\n {4}SELECT 1;\n {4}\n {4}SELECT 2;\n/, 'a blank line inside a code fence does not split it');
    assert.ok(!r.raw.includes(0x1b), 'no ESC byte at all');
    assert.match(r.stdout, /A sneaky \\u001b\]52;c;cHduZWQ=\\u0007 clipboard write/);
  });

  test('--plain prints the reply as the model wrote it', async () => {
    const r = await runCli(['--workspace', ws, '--plain', 'hi'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes('Some **bold** text and `code`, see [the docs](https://example.com/d).\n\n- item one\n'), r.stdout);
  });

  test(
    "on a terminal: in colour, and still only the renderer's own escapes",
    { skip: !haveScript() && 'script(1) is not installed', timeout: scaled(60_000) },
    async () => {
      const r = await runCliOnTerminal(['--workspace', ws, 'hi'], { ...env, TERM: 'xterm-256color' }, []);
      assert.equal(r.code, 0, r.output);
      assert.ok(r.output.includes('Some \u001b[1mbold\u001b[22m text'), JSON.stringify(r.output.slice(0, 400)));
      assert.ok(!r.output.includes('\u001b]'), 'no OSC sequence (clipboard, title, hyperlink) reaches the terminal');
      assert.ok(!r.output.includes('\u001b[2J'), 'the model cannot clear the screen');
      for (const none of [{ NO_COLOR: '1', TERM: 'xterm-256color' }, { TERM: 'dumb' }]) {
        const plain = await runCliOnTerminal(['--workspace', ws, 'hi'], { ...env, ...none }, []);
        assert.ok(plain.output.includes('Some bold text'), `${JSON.stringify(none)}: rendered without colour`);
      }
    },
  );
});
