import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdirInside, openInside, opendirInsideSync, PROC_FD } from '../../src/node/confined-fs';
import { writeFileAtomic } from '../../servers/lib/atomic-write';
import { ToolError } from '../../src/node/tool-error';

// What the sandbox checked a moment ago, replayed after a swap: the path now leads out through a
// symlinked folder. The helpers must notice on their own, after opening.
let base: string;
let ws: string;
let outside: string;

before(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'confined-')));
  ws = join(base, 'ws');
  outside = join(base, 'outside');
  mkdirSync(join(ws, 'real'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(ws, 'real', 'a.txt'), 'inside');
  writeFileSync(join(outside, 'a.txt'), 'outside');
  symlinkSync(outside, join(ws, 'swapped'));
});

after(() => rmSync(base, { recursive: true, force: true }));

const escaped = (err: unknown): boolean => err instanceof ToolError && /moved or replaced by a symlink/.test(err.message);

test('openInside opens what is inside and refuses what a symlinked folder leads out to', { skip: !PROC_FD && 'needs /proc' }, async () => {
  const fh = await openInside(ws, join(ws, 'real', 'a.txt'), constants.O_RDONLY, 'real/a.txt');
  assert.equal((await fh.readFile()).toString(), 'inside');
  await fh.close();
  await assert.rejects(openInside(ws, join(ws, 'swapped', 'a.txt'), constants.O_RDONLY, 'swapped/a.txt'), escaped);
});

test('opendirInsideSync lists inside folders only', { skip: !PROC_FD && 'needs /proc' }, () => {
  const dir = opendirInsideSync(ws, join(ws, 'real'), 'real');
  assert.equal(dir.readSync()?.name, 'a.txt');
  dir.closeSync();
  assert.throws(() => opendirInsideSync(ws, join(ws, 'swapped'), 'swapped'), escaped);
  assert.throws(() => opendirInsideSync(ws, join(ws, 'swapped', '.'), 'swapped'), escaped);
});

test('an atomic write confined to the workspace never writes through a swapped folder', { skip: !PROC_FD && 'needs /proc' }, async () => {
  await writeFileAtomic(join(ws, 'real', 'b.txt'), 'new', undefined, ws);
  assert.equal(readFileSync(join(ws, 'real', 'b.txt'), 'utf8'), 'new');
  await assert.rejects(writeFileAtomic(join(ws, 'swapped', 'b.txt'), 'x', undefined, ws), /moved or replaced by a symlink/);
  assert.deepEqual(readdirSync(outside), ['a.txt']);
  // Without a root it behaves as before (for callers outside any workspace).
  await writeFileAtomic(join(base, 'plain.txt'), 'plain');
  assert.equal(readFileSync(join(base, 'plain.txt'), 'utf8'), 'plain');
});

test('mkdirInside makes folders inside and none through a swapped folder', { skip: !PROC_FD && 'needs /proc' }, async () => {
  assert.equal(await mkdirInside(ws, join(ws, 'real'), 'sub', 'real/sub'), join(ws, 'real', 'sub'));
  assert.ok(existsSync(join(ws, 'real', 'sub')));
  await assert.rejects(mkdirInside(ws, join(ws, 'swapped'), 'sub', 'swapped/sub'), escaped);
  assert.deepEqual(readdirSync(outside), ['a.txt']);
});
