// Undoing several turns at once (going back to an earlier message): newest first, each turn's files back to how
// it found them; what the person changed between the turns is never touched.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ShadowGit } from '../../src/core/checkpoint/shadow-git';
import { TurnCheckpoint, type Checkpoint } from '../../src/core/checkpoint/turn-checkpoint';
import { removeTree, tempWorkspace } from './workspace-harness';

describe('undoing several turns', () => {
  let ws: string;
  let store: string;
  before(() => {
    ws = tempWorkspace('ws-undo-');
    store = tempWorkspace('undo-checkpoints-');
    writeFileSync(join(ws, 'notes.md'), 'v0\n');
    writeFileSync(join(ws, 'mine.md'), 'the person wrote this\n');
  });
  after(() => {
    removeTree(ws);
    removeTree(store);
  });

  async function turn(shadow: ShadowGit, change: () => void): Promise<Checkpoint> {
    const t = new TurnCheckpoint(shadow, (m) => assert.fail(m));
    await t.begin();
    change();
    const cp = await t.end();
    assert.ok(cp);
    return cp;
  }

  test("two turns that changed the same file and one of their own are undone to before the first; the person's edit between them stays", async () => {
    const shadow = new ShadowGit(join(store, 'checkpoints.git'), ws);
    const first = await turn(shadow, () => writeFileSync(join(ws, 'notes.md'), 'v1 by turn one\n'));
    // Between the turns the person edits a file of their own.
    writeFileSync(join(ws, 'mine.md'), 'the person changed this between the turns\n');
    const second = await turn(shadow, () => {
      writeFileSync(join(ws, 'notes.md'), 'v2 by turn two\n');
      writeFileSync(join(ws, 'made.md'), 'created by turn two\n');
    });
    const plan = await shadow.planUndo([first, second]);
    assert.deepEqual({ restore: plan.restore.sort(), skip: plan.skip }, { restore: ['made.md', 'notes.md'], skip: [] });
    assert.equal(readFileSync(join(ws, 'notes.md'), 'utf8'), 'v2 by turn two\n', 'planning changes nothing');

    const done = await shadow.undo([first, second]);
    assert.deepEqual(done.restored.sort(), ['made.md', 'notes.md']);
    assert.equal(readFileSync(join(ws, 'notes.md'), 'utf8'), 'v0\n');
    assert.equal(existsSync(join(ws, 'made.md')), false);
    assert.equal(readFileSync(join(ws, 'mine.md'), 'utf8'), 'the person changed this between the turns\n');
  });

  test('a file changed again after the last turn is left as it is, and named', async () => {
    const shadow = new ShadowGit(join(store, 'checkpoints-2.git'), ws);
    const only = await turn(shadow, () => writeFileSync(join(ws, 'notes.md'), 'by the turn\n'));
    writeFileSync(join(ws, 'notes.md'), 'by the person, after\n');
    assert.deepEqual(await shadow.planUndo([only]), { restore: [], skip: ['notes.md'] });
    assert.deepEqual(await shadow.undo([only]), { restored: [], skipped: ['notes.md'] });
    assert.equal(readFileSync(join(ws, 'notes.md'), 'utf8'), 'by the person, after\n');
  });
});
