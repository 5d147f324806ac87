// What a checkpoint copies (src/core/checkpoint/snapshot-scope.ts): a file over the size limit and files past
// a snapshot's total are left out and named as not covered; a file the first snapshot left out is never taken
// for one the turn created (Restore must not delete it); the built-in exclusions win over a .gitignore's `!`.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ShadowGit } from '../../src/core/checkpoint/shadow-git';
import { TurnCheckpoint } from '../../src/core/checkpoint/turn-checkpoint';
import { removeTree, tempWorkspace } from './workspace-harness';

const MIB = 1024 * 1024;

/** A fresh workspace and checkpoint store for one test, removed after it. */
async function withWorkspace(body: (ws: string, storeDir: string) => Promise<void>): Promise<void> {
  const ws = tempWorkspace('ws-cp-limits-');
  const store = tempWorkspace('cp-limits-');
  try {
    await body(ws, join(store, 'checkpoints.git'));
  } finally {
    removeTree(ws);
    removeTree(store);
  }
}

/** The paths a snapshot holds. */
function tree(gitDir: string, ws: string, rev: string): string[] {
  const out = execFileSync('git', ['ls-tree', '-r', '-z', '--name-only', rev], {
    env: { ...process.env, GIT_DIR: gitDir, GIT_WORK_TREE: ws },
    encoding: 'utf8',
  });
  return out.split('\0').filter(Boolean).sort();
}

/** Bytes the checkpoint store takes on disk. */
function storeBytes(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
}

async function turn(shadow: ShadowGit, change: () => void) {
  const warnings: string[] = [];
  const cp = new TurnCheckpoint(shadow, (m) => warnings.push(m));
  await cp.begin();
  change();
  const done = await cp.end();
  assert.deepEqual(warnings, []);
  return done;
}

describe('what a checkpoint copies', () => {
  test('a file over 10 MiB is left out and named; the rest of the turn is covered and restored', async () => {
    await withWorkspace(async (ws, gitDir) => {
      writeFileSync(join(ws, 'notes.md'), 'v1\n');
      const shadow = new ShadowGit(gitDir, ws);
      const cp = await turn(shadow, () => {
        writeFileSync(join(ws, 'notes.md'), 'v2\n');
        writeFileSync(join(ws, 'dump.bin'), Buffer.alloc(12 * MIB, 7));
      });
      assert.ok(cp);
      assert.deepEqual(cp.files, ['notes.md']);
      assert.deepEqual(cp.notCovered, [{ path: 'dump.bin', bytes: 12 * MIB, reason: 'size' }]);
      assert.ok(!tree(gitDir, ws, cp.after).includes('dump.bin'));
      assert.ok(storeBytes(gitDir) < 2 * MIB, `the store took ${storeBytes(gitDir)} bytes`);
      const done = await shadow.restore(cp.before, cp.after);
      assert.deepEqual(done, { restored: ['notes.md'], skipped: [] });
      assert.equal(readFileSync(join(ws, 'notes.md'), 'utf8'), 'v1\n');
      assert.equal(statSync(join(ws, 'dump.bin')).size, 12 * MIB, 'the big file is left as it is');
    });
  });

  test('past the total, files are left out; one the first snapshot left out is not taken for a new one, and only its changes are named', async () => {
    await withWorkspace(async (ws, gitDir) => {
      for (const name of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) writeFileSync(join(ws, name), `${name}\n`.repeat(200));
      const shadow = new ShadowGit(gitDir, ws, { maxFileBytes: 4096, maxTotalBytes: 3000 });
      // 4 files of 1,200 bytes: the first snapshot keeps two, and leaves c.txt and d.txt out.
      const cp = await turn(shadow, () => {
        writeFileSync(join(ws, 'c.txt'), 'the turn changed c\n');
        writeFileSync(join(ws, 'a.txt'), 'the turn changed a\n');
      });
      assert.ok(cp);
      assert.deepEqual(tree(gitDir, ws, cp.before), ['a.txt', 'b.txt']);
      assert.deepEqual(cp.files, ['a.txt']);
      assert.deepEqual(cp.notCovered, [{ path: 'c.txt', bytes: 19, reason: 'total' }], 'd.txt was left out too, but the turn did not change it');
      const plan = await shadow.plan(cp.before, cp.after);
      assert.deepEqual(plan, { restore: ['a.txt'], skip: [] }, 'c.txt is not a file the turn created');
      await shadow.restore(cp.before, cp.after);
      assert.equal(readFileSync(join(ws, 'c.txt'), 'utf8'), 'the turn changed c\n', 'c.txt is left as it is, not deleted');
      assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'a.txt\n'.repeat(200));
    });
  });

  test("the built-in exclusions win over a .gitignore's negations", async () => {
    await withWorkspace(async (ws, gitDir) => {
      writeFileSync(join(ws, '.gitignore'), '!node_modules/\n!*.pyc\n');
      const shadow = new ShadowGit(gitDir, ws);
      const cp = await turn(shadow, () => {
        mkdirSync(join(ws, 'node_modules', 'left-pad'), { recursive: true });
        writeFileSync(join(ws, 'node_modules', 'left-pad', 'index.js'), 'module.exports = 1;\n');
        mkdirSync(join(ws, 'src', 'node_modules'), { recursive: true });
        writeFileSync(join(ws, 'src', 'node_modules', 'x.js'), 'x\n');
        writeFileSync(join(ws, 'mod.pyc'), 'bytecode');
        writeFileSync(join(ws, 'app.js'), 'app\n');
      });
      assert.ok(cp);
      assert.deepEqual(cp.files, ['app.js']);
      assert.deepEqual(tree(gitDir, ws, cp.after), ['.gitignore', 'app.js']);
      assert.ok(existsSync(join(ws, 'node_modules', 'left-pad', 'index.js')));
    });
  });

  test('a turn that only writes a big file still says so (no Restore, but a note)', async () => {
    await withWorkspace(async (ws, gitDir) => {
      const shadow = new ShadowGit(gitDir, ws, { maxFileBytes: 1024, maxTotalBytes: 1 * MIB });
      writeFileSync(join(ws, 'data.csv'), 'x'.repeat(2048));
      const cp = await turn(shadow, () => writeFileSync(join(ws, 'data.csv'), 'y'.repeat(4096)));
      assert.ok(cp, 'a changed file the checkpoint does not hold is reported');
      assert.deepEqual(cp.files, []);
      assert.deepEqual(cp.notCovered, [{ path: 'data.csv', bytes: 4096, reason: 'size' }]);
      const gone = await turn(shadow, () => execFileSync('rm', [join(ws, 'data.csv')]));
      assert.deepEqual(gone?.notCovered, [{ path: 'data.csv', bytes: 4096, reason: 'size', deleted: true }]);
    });
  });
});
