import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledServerConfigs } from '../../src/core/mcp/hub/bundled-servers';
import { McpHub } from '../../src/core/mcp/hub/hub';
import { ShadowGit } from '../../src/core/checkpoint/shadow-git';
import { sessionRunsDir } from '../../src/core/chat/chat-home';
import { OrchestratorClient } from '../../src/core/sessions/orchestrator-client';
import { RunCheckpoints } from '../../src/core/sessions/run-checkpoints';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { repoRoot } from './mcp-support';

/**
 * A sub-agent run the person starts from the Sessions view, as the extension composes it: the real orchestrator
 * under our hub, its sub-agent on the fake Messages API writing real files, the call on the approved-call path
 * (command-call.ts) with a checkpoint in a shadow git, and the run's checkpoint kept on disk per session.
 */
describe('a run started from the Sessions view', () => {
  let api: FakeAnthropicApi;
  let workspace: string;
  let home: string;
  let gitDir: string;
  let hub: McpHub;
  let client: OrchestratorClient;
  let git: ShadowGit;
  let reply: (body: MessagesBody) => Reply = () => ({ text: 'nothing scripted' });
  /** What notes.txt held when the sub-agent first asked its model, before any of its calls. */
  let notesAtFirstModelCall: string | undefined;

  before(async () => {
    api = new FakeAnthropicApi((body) => reply(body));
    await api.start();
    workspace = mkdtempSync(join(tmpdir(), 'session-runs-'));
    home = mkdtempSync(join(tmpdir(), 'session-runs-home-'));
    gitDir = join(mkdtempSync(join(tmpdir(), 'session-runs-storage-')), 'checkpoints.git');
    writeFileSync(join(workspace, 'notes.txt'), 'the person wrote this\n');
    // The sub-agent's calls need no question here: what is tested is the host's side of the run.
    const env = { ...process.env, ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: api.url, MCP_AGENT_HOME: home, MCP_AGENT_ORCHESTRATOR_APPROVE: 'all' };
    hub = new McpHub(
      bundledServerConfigs(join(repoRoot(), 'dist'), workspace, env).filter((c) => c.name === 'orchestrator'),
      { connection: { roots: [workspace] } },
    );
    hub.start();
    await hub.settled();
    assert.equal(hub.status('orchestrator')?.state, 'ready', hub.status('orchestrator')?.error);
    git = new ShadowGit(gitDir, workspace);
    client = new OrchestratorClient(hub, {
      calls: { approvals: { has: () => false, add: () => undefined }, checkpoints: git, workspaceDir: workspace, toolTimeoutMs: () => 60_000 },
      runs: new RunCheckpoints(sessionRunsDir(workspace, home)),
    });
  });

  after(async () => {
    await hub?.dispose();
    await api?.stop();
    for (const dir of [workspace, home, gitDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('is checkpointed before its sub-agent writes, and Restore puts the files back', async () => {
    reply = (body) => {
      if (isToolResultTurn(body)) return { text: 'Rewrote notes.txt and added todo.txt.' };
      notesAtFirstModelCall = readFileSync(join(workspace, 'notes.txt'), 'utf8');
      return {
        text: 'Writing.',
        toolUses: [
          { name: 'workspace__write_file', input: { path: 'notes.txt', content: 'the sub-agent rewrote this\n' } },
          { name: 'workspace__write_file', input: { path: 'todo.txt', content: 'a new file\n' } },
        ],
      };
    };
    const answer = await client.start('tidy', undefined, 'Rewrite notes.txt and add todo.txt');
    assert.match(JSON.stringify(answer), /Rewrote notes\.txt/);
    assert.equal(readFileSync(join(workspace, 'notes.txt'), 'utf8'), 'the sub-agent rewrote this\n', 'the sub-agent did write');

    const runs = await client.runs('tidy');
    assert.equal(runs.length, 1, 'one run that changed files');
    const run = runs[0]!;
    assert.equal(run.kind, 'start');
    assert.equal(run.prompt, 'Rewrite notes.txt and add todo.txt');
    assert.deepEqual([...run.checkpoint.files].sort(), ['notes.txt', 'todo.txt']);
    assert.equal(notesAtFirstModelCall, 'the person wrote this\n');
    assert.equal(shadowShow(run.checkpoint.before, 'notes.txt'), 'the person wrote this\n', 'the snapshot was taken before the sub-agent wrote');
    assert.equal(shadowShow(run.checkpoint.after, 'notes.txt'), 'the sub-agent rewrote this\n');

    // As after a reload: the record is read back from disk, and restored with the chat's own restore.
    const kept = await new RunCheckpoints(sessionRunsDir(workspace, home)).of('tidy');
    assert.deepEqual(kept, runs);
    const plan = await git.plan(run.checkpoint.before, run.checkpoint.after);
    assert.deepEqual([...plan.restore].sort(), ['notes.txt', 'todo.txt']);
    const done = await git.restore(run.checkpoint.before, run.checkpoint.after);
    assert.deepEqual(done.skipped, []);
    assert.equal(readFileSync(join(workspace, 'notes.txt'), 'utf8'), 'the person wrote this\n');
    assert.equal(existsSync(join(workspace, 'todo.txt')), false, 'a file the run created is removed');
  });

  test('a resume that changes nothing keeps no checkpoint; deleting the session forgets its runs', async () => {
    reply = (body) => ({ text: `Nothing to do for: ${lastUserText(body)}` });
    await client.resume('tidy', 'Anything else?');
    assert.equal((await client.runs('tidy')).length, 1, 'still only the first run');
    assert.ok(
      (await client.sessions()).some((s) => s.name === 'tidy'),
      'reads take the same path',
    );
    await client.remove('tidy');
    assert.deepEqual(await client.runs('tidy'), []);
    assert.equal(existsSync(join(sessionRunsDir(workspace, home), 'tidy.jsonl')), false);
  });

  function shadowShow(rev: string, path: string): string {
    return execFileSync('git', ['--git-dir', gitDir, 'show', `${rev}:${path}`], { encoding: 'utf8' });
  }
});
