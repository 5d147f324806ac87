// knip (in the lint) takes whatever no entry reaches for dead code, so a bundle esbuild.mjs builds but
// knip.jsonc does not name would have its own code reported, or worse, its exports deleted as unused.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import picomatch from 'picomatch';
import { repoRoot } from '../support/repo-root';

function esbuildEntries(root: string): string[] {
  const r = spawnSync(process.execPath, ['esbuild.mjs', '--entries'], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replaceAll('\\', '/'));
}

test("every entry esbuild.mjs builds is one of knip's entries", () => {
  const root = repoRoot();
  const config = parse(readFileSync(join(root, 'knip.jsonc'), 'utf8')) as { entry: string[] };
  const isEntry = picomatch(config.entry);
  const entries = esbuildEntries(root);
  assert.ok(entries.includes('src/extension.ts'), `esbuild.mjs --entries printed:\n${entries.join('\n')}`);
  assert.deepEqual(
    entries.filter((entry) => !isEntry(entry)),
    [],
    'add these to "entry" in knip.jsonc',
  );
});
