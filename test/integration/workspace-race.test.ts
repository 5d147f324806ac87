import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { removeTree, startWorkspace, tempWorkspace, textOf, type Running } from './workspace-harness';

/**
 * A folder swapped for a symlink to an outside folder while a call runs must not lead the call
 * outside: the check and the open are separate steps, and a swap can fall between them.
 *
 * A child process exchanges `box` (a real folder) and `.swap` (a symlink to the outside folder)
 * with renameat2(RENAME_EXCHANGE) in a tight loop, so `box` always exists and is, at any instant,
 * either. Meanwhile the client reads and writes through `box` many times.
 */
const FLIPPER = `
import ctypes, os, select, sys, time
libc = ctypes.CDLL(None, use_errno=True)
a, b = sys.argv[1].encode(), sys.argv[2].encode()
deadline = time.time() + 120  # stops by itself even if nobody tells it to
swaps = 0
print('ready', flush=True)
while time.time() < deadline:
    for _ in range(200):
        if libc.renameat2(-100, a, -100, b, 2) != 0:
            sys.exit('renameat2 failed: errno %d' % ctypes.get_errno())
    swaps += 200
    if select.select([sys.stdin], [], [], 0)[0]:
        break
print(swaps, flush=True)
`;

const ROUNDS = 150;
const OUTSIDE_FILES = ['file.txt', 'outside-marker.txt'];
const READS_PER_ROUND = 4;
const WRITES_PER_ROUND = 2;

let ws: string;
let outside: string;
let w: Running;
let flipper: ChildProcessWithoutNullStreams;

before(async () => {
  ws = tempWorkspace('ws-race-');
  outside = tempWorkspace('ws-race-outside-');
  writeFileSync(join(outside, 'file.txt'), 'OUTSIDE SECRET\n');
  writeFileSync(join(outside, 'outside-marker.txt'), 'OUTSIDE SECRET\n');
  mkdirSync(join(ws, 'box'));
  writeFileSync(join(ws, 'box', 'file.txt'), 'inside\n');
  symlinkSync(outside, join(ws, '.swap'));
  w = await startWorkspace(ws);
  flipper = spawn('python3', ['-c', FLIPPER, join(ws, 'box'), join(ws, '.swap')], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines = createInterface({ input: flipper.stdout });
  const [first] = (await once(lines, 'line')) as [string];
  assert.equal(first, 'ready');
});

after(async () => {
  if (flipper.exitCode === null) {
    flipper.stdin.end('stop\n');
    await once(flipper, 'exit');
  }
  await w.close();
  removeTree(ws);
  rmSync(outside, { recursive: true, force: true });
});

test('a folder flipping between real and a symlink to outside never lets read_file or write_file out', async () => {
  let insideReads = 0;
  let refused = 0;
  let written = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const reads = Array.from({ length: READS_PER_ROUND }, () => w.call('read_file', { path: 'box/file.txt' }));
    const writes = Array.from({ length: WRITES_PER_ROUND }, (_, k) =>
      w.call('write_file', { path: `box/written-${round}-${k}.txt`, content: 'from the client\n' }),
    );
    for (const r of await Promise.all(reads)) {
      const text = textOf(r);
      assert.doesNotMatch(text, /OUTSIDE SECRET/, `round ${round}: read outside content`);
      if (r.isError) refused++;
      else if (text === 'inside\n') insideReads++;
    }
    for (const r of await Promise.all(writes)) if (!r.isError) written++;
    assert.deepEqual(readdirSync(outside).sort(), OUTSIDE_FILES, `round ${round}: a file appeared outside`);
  }
  assert.equal(flipper.exitCode, null, 'the flipper stopped early');
  assert.equal(readFileSync(join(outside, 'file.txt'), 'utf8'), 'OUTSIDE SECRET\n');
  assert.deepEqual(readdirSync(outside).sort(), OUTSIDE_FILES);
  // The calls really raced the swaps: some got through, some were refused.
  assert.ok(insideReads > 0, `no read succeeded (${refused} refused)`);
  assert.ok(written > 0, 'no write succeeded');
});

test('nor lets list_directory or search_files list or read the outside folder', async () => {
  let listed = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const lists = Array.from({ length: 3 }, () => w.call('list_directory', { path: 'box' }));
    const search = w.call('search_files', { pattern: '*', path: 'box', content: 'SECRET' });
    for (const r of await Promise.all(lists)) {
      assert.doesNotMatch(textOf(r), /outside-marker/, `round ${round}: listed the outside folder`);
      if (!r.isError) listed++;
    }
    const found = await search;
    assert.doesNotMatch(textOf(found), /OUTSIDE SECRET|outside-marker/, `round ${round}: searched the outside folder`);
  }
  assert.ok(listed > 0, 'no listing succeeded');
});
