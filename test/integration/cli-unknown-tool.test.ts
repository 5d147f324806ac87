// A call of a tool that does not exist, through the real CLI: shown as the model wrote its name, marked unknown
// (it read `?__server__tool` before).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAnthropicApi, isToolResultTurn } from '../fakes/anthropic-api';
import { runCli } from './helpers/cli-process';
import { scaled } from '../support/until';

describe('an unknown tool in the CLI', () => {
  const api = new FakeAnthropicApi((body) => (isToolResultTurn(body) ? { text: 'done' } : { toolUses: [{ name: 'nosuch__lookup', input: { q: 'x' } }] }));
  const ws = mkdtempSync(join(tmpdir(), 'cli-unknown-tool-'));
  let env: Record<string, string>;
  before(async () => {
    env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: await api.start() };
  });
  after(async () => {
    await api.stop();
    rmSync(ws, { recursive: true, force: true });
  });

  test('a call of a tool that does not exist shows the name the model used, marked unknown', { timeout: scaled(120_000) }, async () => {
    const r = await runCli(['--workspace', ws, '--yes', 'call something unknown'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\[tool\] nosuch__lookup \(unknown tool\)/);
    assert.doesNotMatch(r.stdout, /\?__/);
  });
});
