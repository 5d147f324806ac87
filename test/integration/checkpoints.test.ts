import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ShadowGit } from '../../src/core/checkpoint/shadow-git';
import { TurnCheckpoint } from '../../src/core/checkpoint/turn-checkpoint';
import { removeTree, tempWorkspace } from './workspace-harness';

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' });

describe('checkpoints in a git repository of our own', () => {
  let ws: string;
  let store: string;
  before(() => {
    ws = tempWorkspace('ws-checkpoint-');
    store = tempWorkspace('checkpoints-');
    // The person's own repository, which must not notice anything.
    git(ws, 'init', '-q');
    git(ws, 'config', 'user.email', 'p@example.com');
    git(ws, 'config', 'user.name', 'P');
    writeFileSync(join(ws, 'keep.txt'), 'mine\n');
    writeFileSync(join(ws, 'edit.txt'), 'v1\n');
    writeFileSync(join(ws, 'gone.txt'), 'delete me\n');
    writeFileSync(join(ws, '.gitignore'), 'ignored/\n');
    git(ws, 'add', '-A');
    git(ws, 'commit', '-qm', 'theirs');
  });
  after(() => {
    removeTree(ws);
    removeTree(store);
  });

  test("a turn is undone file by file; a file changed since is left alone; the person's git is untouched", async () => {
    const shadow = new ShadowGit(join(store, 'checkpoints.git'), ws);
    const warnings: string[] = [];
    const turn = new TurnCheckpoint(shadow, (m) => warnings.push(m));
    await turn.begin();
    await turn.begin(); // once per turn
    writeFileSync(join(ws, 'edit.txt'), 'v2 by the agent\n');
    writeFileSync(join(ws, 'created.txt'), 'new\n');
    mkdirSync(join(ws, 'deep', 'er'), { recursive: true });
    writeFileSync(join(ws, 'deep', 'er', 'made.txt'), 'x\n');
    unlinkSync(join(ws, 'gone.txt'));
    mkdirSync(join(ws, 'ignored'));
    writeFileSync(join(ws, 'ignored', 'big.bin'), 'not in any snapshot');
    writeFileSync(join(ws, 'later.txt'), 'agent wrote\n');
    const cp = await turn.end();
    assert.ok(cp, warnings.join('\n'));
    assert.deepEqual(cp.files.sort(), ['created.txt', 'deep/er/made.txt', 'edit.txt', 'gone.txt', 'later.txt']);
    // After the turn, the person edits one of the files again.
    writeFileSync(join(ws, 'later.txt'), 'the person changed it after\n');
    const plan = await shadow.plan(cp.before, cp.after);
    assert.deepEqual(plan.skip, ['later.txt']);
    const done = await shadow.restore(cp.before, cp.after);
    assert.deepEqual(done.skipped, ['later.txt']);
    assert.equal(readFileSync(join(ws, 'edit.txt'), 'utf8'), 'v1\n');
    assert.equal(readFileSync(join(ws, 'gone.txt'), 'utf8'), 'delete me\n');
    assert.equal(existsSync(join(ws, 'created.txt')), false);
    assert.equal(existsSync(join(ws, 'deep', 'er', 'made.txt')), false);
    assert.equal(readFileSync(join(ws, 'later.txt'), 'utf8'), 'the person changed it after\n');
    assert.equal(readFileSync(join(ws, 'keep.txt'), 'utf8'), 'mine\n');
    // Their repository: one commit, nothing staged, no stash, no new refs.
    assert.equal(git(ws, 'rev-list', '--count', 'HEAD').trim(), '1');
    assert.equal(git(ws, 'diff', '--cached', '--name-only').trim(), '');
    assert.equal(git(ws, 'stash', 'list').trim(), '');
    assert.equal(existsSync(join(ws, '.git', 'refs', 'heads', 'checkpoints')), false);
  });

  test('a turn that changes nothing has no checkpoint, and one that never began takes no snapshot', async () => {
    const shadow = new ShadowGit(join(store, 'checkpoints.git'), ws);
    const quiet = new TurnCheckpoint(shadow, () => undefined);
    await quiet.begin();
    assert.equal(await quiet.end(), undefined);
    const unused = new TurnCheckpoint(shadow, () => assert.fail('no snapshot expected'));
    assert.equal(await unused.end(), undefined);
  });

  test('without git the turn still runs: no checkpoint and a warning', async () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const warnings: string[] = [];
      const turn = new TurnCheckpoint(new ShadowGit(join(store, 'other.git'), ws), (m) => warnings.push(m));
      await turn.begin();
      assert.equal(await turn.end(), undefined);
      assert.match(warnings.join('\n'), /no checkpoint for this turn/);
    } finally {
      process.env.PATH = path;
    }
  });
});
