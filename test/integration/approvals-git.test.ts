// "Always allow write_file" must not let the model make git run code: through the real agent loop
// (real Anthropic SDK against the fake Messages API, the real workspace server behind McpHub) and
// real git repositories, each write that would plant a core.fsmonitor command still asks; denied,
// nothing is written and the next `git status` runs nothing. Each case then plants the same bytes
// by hand to prove the command would have run.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { Agent } from '../../src/core/agent/agent';
import type { ApprovalRequest } from '../../src/core/agent/types';
import { bundledServerConfigs } from '../../src/core/mcp/hub/bundled-servers';
import { McpHub } from '../../src/core/mcp/hub/hub';
import { FakeAnthropicApi, type Reply } from '../fakes/anthropic-api';
import { repoRoot } from '../support/repo-root';
import { fsmonitorSection, makeGitFixture, plantGitDir, type GitFixture } from './git-fixture';
import { scaled } from '../support/until';

const T = { timeout: scaled(60_000) };

interface Write {
  path: string;
  content: string;
}

interface Outcome {
  asked: ApprovalRequest[];
  /** What the model got back for each write, in order. */
  results: string[];
}

describe('git cannot be made to run code through an "always allowed" write_file', () => {
  const api = new FakeAnthropicApi();
  let client: Anthropic;
  const fixtures: GitFixture[] = [];
  before(async () => {
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
  });
  after(async () => {
    await api.stop();
    for (const f of fixtures) rmSync(f.root, { recursive: true, force: true });
  });

  function fixture(): GitFixture {
    const f = makeGitFixture();
    fixtures.push(f);
    return f;
  }

  /**
   * One agent on the fixture's workspace: first the person answers "always" to an ordinary
   * write_file, then the model makes `writes`; every question after the first is denied.
   */
  async function agentWrites(f: GitFixture, writes: Write[]): Promise<Outcome> {
    const configs = bundledServerConfigs(join(repoRoot(), 'dist'), f.ws, {}).filter((c) => c.name === 'workspace');
    const hub = new McpHub(configs, { connection: { roots: [f.ws] } });
    hub.start();
    try {
      await hub.settled();
      assert.equal(hub.status('workspace')?.state, 'ready', hub.status('workspace')?.error);
      const asked: ApprovalRequest[] = [];
      const agent = new Agent({
        client,
        host: hub,
        model: 'claude-test',
        workspaceName: 'ws',
        approvals: memoryStore(),
        askApproval: async (request) => (asked.push(request), asked.length === 1 ? 'always' : 'deny'),
      });
      const step = (w: Write): Reply => ({ toolUses: [{ name: 'workspace__write_file', input: { ...w } }] });
      api.setScript([step({ path: 'notes.txt', content: 'hello\n' }), { text: 'ok' }, ...writes.map(step), { text: 'done' }]);
      const signal = new AbortController().signal;
      assert.equal(await agent.runTurn({ text: 'write notes.txt' }, () => undefined, signal), 'done');
      assert.equal(readFileSync(join(f.ws, 'notes.txt'), 'utf8'), 'hello\n');
      assert.equal(asked.length, 1);
      const before = api.requests.length;
      assert.equal(await agent.runTurn({ text: 'go on' }, () => undefined, signal), 'done');
      const results = api.requests.slice(before + 1).map((r) => JSON.stringify(r.body.messages.at(-1)));
      return { asked: asked.slice(1), results };
    } finally {
      await hub.dispose();
    }
  }

  function assertAskedOnlyFor(outcome: Outcome, path: string): void {
    assert.deepEqual(
      outcome.asked.map((r) => r.input.path),
      [path],
      'only the write that redirects git asked; the others ran under "always"',
    );
    assert.equal(outcome.asked[0]!.alwaysKind, 'none', 'no "always" offered for it');
    assert.match(outcome.asked[0]!.warnings.join(' '), /a way to run code/);
  }

  test('a submodule config (.git/modules/sub/config)', T, async () => {
    const f = fixture();
    const marker = join(f.root, 'marker-submodule');
    const configPath = join(f.ws, '.git', 'modules', 'sub', 'config');
    const original = readFileSync(configPath, 'utf8');
    const planted = original + fsmonitorSection(marker);

    const outcome = await agentWrites(f, [{ path: '.git/modules/sub/config', content: planted }]);
    assertAskedOnlyFor(outcome, '.git/modules/sub/config');
    assert.match(outcome.results.at(-1)!, /denied this tool call/);
    assert.equal(readFileSync(configPath, 'utf8'), original, 'nothing was written');
    assert.equal(f.git('.', 'status').status, 0);
    assert.equal(f.git('sub', 'status').status, 0);
    assert.equal(existsSync(marker), false, 'git status ran no planted command');

    // The same bytes, written: the next git status runs the command.
    writeFileSync(configPath, planted);
    assert.equal(f.git('.', 'status').status, 0);
    assert.equal(existsSync(marker), true, 'the planted command would have run');
  });

  test('.git/commondir pointing at a folder the model filled under "always"', T, async () => {
    const f = fixture();
    const marker = join(f.root, 'marker-commondir');
    const commondir = join(f.ws, '.git', 'commondir');
    const evilConfig = `[core]\n\trepositoryformatversion = 0\n\tbare = false\n${fsmonitorSection(marker)}`;

    const outcome = await agentWrites(f, [
      { path: 'evil/config', content: evilConfig },
      { path: 'evil/objects/.keep', content: '' },
      { path: 'evil/refs/heads/.keep', content: '' },
      { path: '.git/commondir', content: '../evil\n' },
    ]);
    assertAskedOnlyFor(outcome, '.git/commondir');
    assert.equal(existsSync(join(f.ws, 'evil', 'config')), true, 'the ordinary writes ran');
    assert.equal(existsSync(commondir), false, 'nothing was written');
    assert.equal(f.git('.', 'status').status, 0);
    assert.equal(existsSync(marker), false, 'git status ran no planted command');

    writeFileSync(commondir, '../evil\n');
    f.git('.', 'status');
    assert.equal(existsSync(marker), true, 'the planted command would have run');
  });

  test("a worktree's .git file replaced by a gitdir: pointer", T, async () => {
    const f = fixture();
    const marker = join(f.root, 'marker-worktree');
    const gitFile = join(f.ws, 'wt', '.git');
    const original = readFileSync(gitFile, 'utf8');
    // The git dir it would point at; its HEAD is itself a write that asks, so it is put there by hand.
    plantGitDir(join(f.ws, 'evil-gitdir'), marker);

    const outcome = await agentWrites(f, [{ path: 'wt/.git', content: 'gitdir: ../evil-gitdir\n' }]);
    assertAskedOnlyFor(outcome, 'wt/.git');
    assert.equal(readFileSync(gitFile, 'utf8'), original, 'nothing was written');
    assert.equal(f.git('wt', 'status').status, 0);
    assert.equal(existsSync(marker), false, 'git status ran no planted command');

    writeFileSync(gitFile, 'gitdir: ../evil-gitdir\n');
    f.git('wt', 'status');
    assert.equal(existsSync(marker), true, 'the planted command would have run');
  });

  test('a bare repository planted in a plain folder: its HEAD asks', T, async () => {
    const f = fixture();
    const outcome = await agentWrites(f, [
      { path: 'vendor/x/config', content: '[core]\n\tbare = true\n' },
      { path: 'vendor/x/HEAD', content: 'ref: refs/heads/main\n' },
    ]);
    assertAskedOnlyFor(outcome, 'vendor/x/HEAD');
    assert.equal(existsSync(join(f.ws, 'vendor', 'x', 'HEAD')), false);
  });
});

function memoryStore(): { has(k: string): boolean; add(k: string): void } {
  const keys = new Set<string>();
  return { has: (k) => keys.has(k), add: (k) => void keys.add(k) };
}
