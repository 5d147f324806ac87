import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eraKey, FileEras, LEGACY_VERDICT_MS, priorOf } from '../../src/core/mcp/era/era-memory';

const discover = { supportedVersions: ['2026-07-28'], capabilities: {} };

test('eras are kept in a file that two processes share without losing what the other learned', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eras-'));
  try {
    const file = join(dir, 'home', 'eras.json');
    const one = new FileEras(file);
    const two = new FileEras(file);
    one.remember('a', { era: 'legacy', at: 1 });
    two.remember('b', { era: 'modern', discover, at: 2 });
    const read = new FileEras(file);
    assert.equal(read.recall('a')?.era, 'legacy');
    assert.deepEqual(read.recall('b'), { era: 'modern', discover, at: 2 });
    read.forget('a');
    assert.equal(new FileEras(file).recall('a'), undefined);
    assert.equal(new FileEras(file).recall('b')?.era, 'modern');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an unreadable file is an empty memory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eras-'));
  try {
    const file = join(dir, 'eras.json');
    writeFileSync(file, '{not json');
    const eras = new FileEras(file);
    assert.equal(eras.recall('a'), undefined);
    eras.remember('a', { era: 'legacy', at: 1 });
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).servers.a.era, 'legacy');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a verdict becomes the SDK's prior: modern with its discover result, legacy only while fresh", () => {
  const now = 10 * LEGACY_VERDICT_MS;
  assert.deepEqual(priorOf({ era: 'modern', discover, at: 0 }, now), { kind: 'modern', discover });
  assert.equal(priorOf({ era: 'modern', at: 0 }, now), undefined);
  assert.deepEqual(priorOf({ era: 'legacy', at: now - 1000 }, now), { kind: 'legacy' });
  assert.equal(priorOf({ era: 'legacy', at: now - LEGACY_VERDICT_MS }, now), undefined);
  assert.equal(priorOf(undefined, now), undefined);
});

test('a definition is what runs, not its name or its secrets', () => {
  const base = { name: 'a', transport: 'stdio' as const, command: 'node', args: ['s.js'], env: { KEY: 'one' } };
  assert.equal(eraKey(base), eraKey({ ...base, name: 'b', env: { KEY: 'two' } }));
  assert.notEqual(eraKey(base), eraKey({ ...base, args: ['t.js'] }));
  assert.notEqual(eraKey({ name: 'h', transport: 'http', url: 'http://a/mcp' }), eraKey({ name: 'h', transport: 'http', url: 'http://b/mcp' }));
});
