// `npm start` and `npm test` install Debian packages; another apt process holding the lock (unattended upgrades
// on a fresh machine) must make them wait, bounded, not fail. Real apt-get against a lists folder of the test's own,
// with no sources, so it runs offline in a moment and touches nothing of the machine's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../support/repo-root';

/** Holds an fcntl lock on `file` (as apt and dpkg take theirs) for `seconds`; resolves once it holds it. */
async function holdLock(file: string, seconds: number): Promise<ChildProcess> {
  const code = [
    'import fcntl, os, sys, time',
    `fd = os.open(${JSON.stringify(file)}, os.O_RDWR | os.O_CREAT, 0o640)`,
    'fcntl.lockf(fd, fcntl.LOCK_EX)',
    'print("locked", flush=True)',
    `time.sleep(${seconds})`,
  ].join('\n');
  const child = spawn('python3', ['-c', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => c.toString().includes('locked') && resolve());
    child.once('exit', (c) => reject(new Error(`lock holder exited (${c}) before locking`)));
  });
  return child;
}

/** Runs scripts/apt.mjs's aptGet(['update', ...]) in a child (it blocks while it waits); `onOutput` sees what it printed so far. */
function aptUpdate(lists: string, waitMs: number, onOutput?: (output: string) => void): Promise<{ code: number | null; output: string; at: number }> {
  const args = ['update', '-o', `Dir::State::Lists=${lists}`, '-o', 'Dir::Etc::SourceList=/dev/null', '-o', `Dir::Etc::SourceParts=${lists}/none`];
  const script =
    `import(${JSON.stringify(join(repoRoot(), 'scripts', 'apt.mjs'))}).then((m) => m.aptGet(${JSON.stringify(args)}, { waitMs: ${waitMs} }))` +
    `.catch((e) => { console.error('FAILED: ' + e.message); process.exit(1); })`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const take = (c: Buffer): void => {
    output += c.toString();
    onOutput?.(output);
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output, at: Date.now() })));
}

function listsDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-agent-apt-'));
  mkdirSync(join(dir, 'lists', 'partial'), { recursive: true });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'lists');
}

test('apt-get waits for a lock another process holds, then succeeds', async (t) => {
  const lists = listsDir(t);
  // Held until apt-get says it waits for it, however long the machine takes to get there.
  const holder = await holdLock(join(lists, 'lock'), 600);
  t.after(() => holder.kill('SIGKILL'));
  let released = 0;
  holder.once('exit', () => (released = Date.now()));
  const r = await aptUpdate(lists, 60_000, (output) => {
    if (/holds the lock; waiting/.test(output)) holder.kill('SIGTERM');
  });
  assert.equal(r.code, 0, r.output);
  assert.match(r.output, /another apt or dpkg process holds the lock; waiting up to 60 s/);
  assert.ok(released > 0 && released <= r.at, 'apt-get finished only after the lock was released');
});

test('the wait is bounded: a lock held for good fails with a message saying what to do', async (t) => {
  const lists = listsDir(t);
  const holder = await holdLock(join(lists, 'lock'), 600);
  t.after(() => holder.kill('SIGKILL'));
  const r = await aptUpdate(lists, 1500);
  assert.equal(r.code, 1, r.output);
  assert.match(r.output, /FAILED: apt-get update .*still holds its lock after 2 s .*Wait for it to finish, then run this again/s);
});
