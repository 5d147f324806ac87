import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync, existsSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sandbox, isInside } from '../../src/node/sandbox';
import { ToolError } from '../../servers/lib/results';

let base: string;
let ws: string;
let outside: string;
let sb: Sandbox;

before(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'sandbox-')));
  ws = join(base, 'ws');
  outside = join(base, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
  for (const sib of ['ws_evil', 'ws2', 'ws-old']) {
    mkdirSync(join(base, sib));
    writeFileSync(join(base, sib, 'x'), 'secret');
  }
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  writeFileSync(join(ws, 'notes.txt'), 'hi');
  mkdirSync(join(ws, 'a', 'b', 'c'), { recursive: true });
  writeFileSync(join(ws, '..test'), '');
  writeFileSync(join(ws, 'te..st'), '');
  writeFileSync(join(ws, '...'), '');
  symlinkSync('/etc', join(ws, 'etc'));
  symlinkSync(outside, join(ws, 'out'));
  symlinkSync(join(ws, 'notes.txt'), join(ws, 'inner-link'));
  symlinkSync(join(outside, 'secret.txt'), join(ws, 'leak.txt'));
  symlinkSync('loop2', join(ws, 'loop1'));
  symlinkSync('loop1', join(ws, 'loop2'));
  sb = new Sandbox(ws);
});

after(() => rmSync(base, { recursive: true, force: true }));

async function refused(p: Promise<unknown>, match: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof ToolError, `expected a ToolError, got ${String(err)}`);
    assert.match(err.message, match);
    return true;
  });
}

describe('isInside', () => {
  test('needs a separator boundary, not a bare prefix', () => {
    assert.equal(isInside('/ws', '/ws'), true);
    assert.equal(isInside('/ws', '/ws/a'), true);
    assert.equal(isInside('/ws', '/ws_evil'), false);
    assert.equal(isInside('/ws', '/ws2/a'), false);
    assert.equal(isInside('/ws', '/ws-old'), false);
    assert.equal(isInside('/', '/etc'), true);
  });
});

describe('Sandbox.lexical', () => {
  test('allows the root and odd-but-inside names', () => {
    assert.equal(sb.lexical(ws), ws);
    assert.equal(sb.lexical(ws + '/'), ws);
    assert.equal(sb.lexical('.'), ws);
    assert.equal(sb.lexical(''), ws);
    assert.equal(sb.lexical('./a//b/./c'), join(ws, 'a', 'b', 'c'));
    assert.equal(sb.lexical('..test'), join(ws, '..test'));
    assert.equal(sb.lexical('te..st'), join(ws, 'te..st'));
    assert.equal(sb.lexical('...'), join(ws, '...'));
    assert.equal(sb.lexical('a/../notes.txt'), join(ws, 'notes.txt'));
    assert.equal(sb.lexical('~notes.txt'), join(ws, '~notes.txt'));
  });

  test('relative paths resolve against the workspace, not the process cwd', () => {
    const cwd = process.cwd();
    process.chdir(outside);
    try {
      assert.equal(sb.lexical('secret.txt'), join(ws, 'secret.txt'));
    } finally {
      process.chdir(cwd);
    }
  });

  for (const p of ['../../etc/passwd', '..', '../ws_evil/x', 'a/../../outside/secret.txt']) {
    test(`refuses ${JSON.stringify(p)}`, () => {
      assert.throws(() => sb.lexical(p), /climbs out of the workspace/);
    });
  }

  test('refuses absolute paths outside, sibling prefixes included', () => {
    for (const p of ['/etc/passwd', `${ws}/../../etc/passwd`, `${ws}_evil/x`, `${ws}2`, `${ws}-old`, `${ws}/../ws2/x`]) {
      assert.throws(() => sb.lexical(p), /is outside the workspace/, p);
    }
  });

  test('refuses NUL bytes and home-directory paths', () => {
    assert.throws(() => sb.lexical('notes\x00.txt'), /NUL byte/);
    assert.throws(() => sb.lexical('~/.ssh/id_rsa'), /starts with "~"/);
    assert.throws(() => sb.lexical('~'), /starts with "~"/);
    assert.throws(() => sb.lexical('~root/.ssh/id_rsa'), /starts with "~"/);
  });
});

describe('Sandbox.existing', () => {
  test('resolves files inside, through inner symlinks too', async () => {
    assert.deepEqual(await sb.existing('notes.txt'), { real: join(ws, 'notes.txt'), rel: 'notes.txt' });
    assert.deepEqual(await sb.existing(ws + '/'), { real: ws, rel: '.' });
    assert.equal((await sb.existing('inner-link')).rel, 'notes.txt');
    assert.equal((await sb.existing('./a//b/./c')).rel, 'a/b/c');
  });

  test('refuses symlinks that lead out', async () => {
    await refused(sb.existing('etc/passwd'), /outside the workspace through a symlink/);
    await refused(sb.existing('etc'), /outside the workspace through a symlink/);
    await refused(sb.existing('out/secret.txt'), /outside the workspace through a symlink/);
    await refused(sb.existing('leak.txt'), /outside the workspace through a symlink/);
  });

  test('missing files and loops get clear errors', async () => {
    await refused(sb.existing('a/b/nope.txt'), /does not exist.*nearest existing folder is "a\/b"/);
    await refused(sb.existing('loop1'), /symlink loop/);
  });

  test('a workspace given through a symlink still works with either spelling', async () => {
    const link = join(base, 'ws-link');
    symlinkSync(ws, link);
    const viaLink = new Sandbox(link);
    assert.equal((await viaLink.existing(join(link, 'notes.txt'))).rel, 'notes.txt');
    assert.equal((await viaLink.existing(join(ws, 'notes.txt'))).rel, 'notes.txt');
    assert.throws(() => viaLink.lexical(`${link}/../outside/secret.txt`), /outside the workspace/);
  });
});

describe('Sandbox.forWrite', () => {
  test('new and existing files inside', async () => {
    const created = await sb.forWrite('new/deeper/file.txt', true);
    assert.equal(created.rel, 'new/deeper/file.txt');
    assert.equal(created.exists, false);
    assert.ok(lstatSync(join(ws, 'new', 'deeper')).isDirectory());
    const existing = await sb.forWrite('notes.txt');
    assert.equal(existing.exists, true);
  });

  test('refuses to write through a symlinked folder that leads out', async () => {
    await refused(sb.forWrite('out/new.txt', true), /outside the workspace through a symlink/);
    await refused(sb.forWrite('out/sub/new.txt', true), /outside the workspace through a symlink/);
    assert.equal(existsSync(join(outside, 'new.txt')), false);
    assert.equal(existsSync(join(outside, 'sub')), false);
  });

  test('refuses a symlink as the target, even one pointing inside', async () => {
    await refused(sb.forWrite('inner-link'), /is a symlink; writes never follow symlinks/);
    await refused(sb.forWrite('leak.txt'), /symlink/);
    assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'secret');
  });

  test('refuses folders, the root, and missing parents without createParents', async () => {
    await refused(sb.forWrite('a'), /is a directory/);
    await refused(sb.forWrite('.'), /workspace folder itself/);
    await refused(sb.forWrite('nope/x.txt'), /folder "nope" does not exist/);
    await refused(sb.forWrite('notes.txt/x.txt', true), /is a file, not a folder/);
  });
});
