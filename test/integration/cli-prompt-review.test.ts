// The REPL's /prompt shows the prompt first and sends nothing until the person says so, as the
// research seed does: send it, edit it (in $EDITOR, or on the input line) or drop it. The seed's command
// names work too. A real CLI with the bundled research server's generate_search_prompt.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAnthropicApi, lastUserText } from '../fakes/anthropic-api';
import { runCli } from './helpers/cli-process';
import { scaled } from '../support/until';

const T = { timeout: scaled(60_000) };

describe('the CLI reviews a prompt before it is sent', () => {
  const api = new FakeAnthropicApi(() => ({ text: 'on it' }));
  let env: Record<string, string>;
  let ws: string;
  const repl = (input: string[], extra: Record<string, string> = {}) => runCli(['--workspace', ws], { ...env, ...extra }, `${[...input, 'exit'].join('\n')}\n`);

  before(async () => {
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: await api.start() };
    ws = mkdtempSync(join(tmpdir(), 'cli-review-'));
  });
  after(async () => {
    await api.stop();
    rmSync(ws, { recursive: true, force: true });
  });

  test('the prompt is shown and a "no" sends nothing; /use-prompt is the seed\'s name for /prompt', T, async () => {
    const before_ = api.requests.length;
    const r = await repl(['/use-prompt generate_search_prompt topic=lasers', 'n']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\[prompt research\/generate_search_prompt: 1 message: user\]\n--- user ---\n.*lasers/);
    assert.match(r.stdout, /Send it\? \[Y\]es \/ \[e\]dit \/ \[n\]o: \[prompt not sent\]/);
    assert.equal(api.requests.length, before_, 'nothing reached the model');
  });

  test('"y" sends it as it is', T, async () => {
    const before_ = api.requests.length;
    const r = await repl(['/prompt research/generate_search_prompt topic=lasers num_papers=2', 'y']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(lastUserText(api.requests[before_]!.body), /^Search for 2 academic papers about 'lasers' using the search_papers tool/);
  });

  test('"e" without an editor takes the edited line; with $EDITOR it is edited there', T, async () => {
    let before_ = api.requests.length;
    let r = await repl(['/prompt research/generate_search_prompt topic=lasers', 'e', 'Find one paper on lasers, briefly']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Edit the text and press Enter/);
    assert.equal(lastUserText(api.requests[before_]!.body), 'Find one paper on lasers, briefly');

    before_ = api.requests.length;
    r = await repl(['/prompt research/generate_search_prompt topic=lasers', 'e'], { EDITOR: 'sed -i s/lasers/MASERS/g' });
    assert.equal(r.code, 0, r.stderr);
    const sent = lastUserText(api.requests[before_]!.body);
    assert.match(sent, /MASERS/);
    assert.doesNotMatch(sent, /lasers/);
  });
});
