import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
