import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonlLog } from '../../src/core/chat/jsonl-log';

const asRecord = (v: unknown): { n: number } | undefined =>
  typeof v === 'object' && v !== null && typeof (v as { n?: unknown }).n === 'number' ? (v as { n: number }) : undefined;

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'jsonl-log-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('records appended after a torn last line all come back on every later load', async (t) => {
  const file = join(tempDir(t), 'messages.jsonl');
  writeFileSync(file, '{"n":1}\n{"n":2,"text":"the window clo'); // closed mid-append
  const log = new JsonlLog(file, asRecord);
  await log.append({ n: 3 });
  await log.append({ n: 4 });
  assert.equal(log.lastError, undefined);
  assert.deepEqual(await new JsonlLog(file, asRecord).load(), [{ n: 1 }, { n: 3 }, { n: 4 }]);
  // and a second session appending to the repaired file loses nothing either
  const again = new JsonlLog(file, asRecord);
  await again.append({ n: 5 });
  assert.deepEqual(
    (await again.load()).map((r) => r.n),
    [1, 3, 4, 5],
  );
});

test('a clean file, an empty file and a new file get no blank lines', async (t) => {
  const dir = tempDir(t);
  const clean = join(dir, 'clean.jsonl');
  writeFileSync(clean, '{"n":1}\n');
  await new JsonlLog(clean, asRecord).append({ n: 2 });
  assert.equal(readFileSync(clean, 'utf8'), '{"n":1}\n{"n":2}\n');
  const empty = join(dir, 'empty.jsonl');
  writeFileSync(empty, '');
  await new JsonlLog(empty, asRecord).append({ n: 1 });
  assert.equal(readFileSync(empty, 'utf8'), '{"n":1}\n');
  const fresh = join(dir, 'sub', 'new.jsonl');
  const log = new JsonlLog(fresh, asRecord);
  await Promise.all([log.append({ n: 1 }), log.append({ n: 2 })]);
  assert.equal(readFileSync(fresh, 'utf8'), '{"n":1}\n{"n":2}\n');
});

test('a replace that fails leaves no temporary file, and the log says it is behind until one succeeds', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'events.jsonl');
  // A folder where the file should be: the rename over it fails, wherever the test runs (as root too).
  mkdirSync(file);
  const log = new JsonlLog(file, asRecord);
  await log.replace([{ n: 1 }]);
  assert.match(String(log.lastError), /EISDIR|ENOTDIR|EEXIST|ENOTEMPTY/);
  assert.deepEqual(
    readdirSync(dir).filter((n) => n.endsWith('.tmp')),
    [],
  );
  // Appends are dropped while it is behind: the file never gets a gap.
  rmSync(file, { recursive: true });
  await log.append({ n: 2 });
  assert.deepEqual(await new JsonlLog(file, asRecord).load(), []);
  await log.replace([{ n: 1 }, { n: 2 }]);
  assert.equal(log.lastError, undefined);
  await log.append({ n: 3 });
  assert.deepEqual(
    (await new JsonlLog(file, asRecord).load()).map((r) => r.n),
    [1, 2, 3],
  );
});

test('loadChecked names each line it cannot read, by its line number', async (t) => {
  const file = join(tempDir(t), 'messages.jsonl');
  writeFileSync(file, '{"n":1}\n{"n":\n\n{"x":2}\n{"n":3}\n');
  const { records, unreadable } = await new JsonlLog(file, asRecord).loadChecked();
  assert.deepEqual(records, [{ n: 1 }, { n: 3 }]);
  assert.deepEqual(unreadable, [
    { line: 2, text: '{"n":' },
    { line: 4, text: '{"x":2}' },
  ]);
});
