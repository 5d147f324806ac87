import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isGlob, nameTest } from '../../servers/workspace/glob';
import { detectKind } from '../../src/node/file-kind';

test('globs: without a "/" about the name, with one about the relative path', () => {
  const cases: Array<[string, string, boolean]> = [
    ['*.ts', 'a.ts', true],
    ['*.ts', 'A.TS', true],
    ['*.ts', 'a/b.ts', true], // the name b.ts
    ['a/*.ts', 'a/b/c.ts', false],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'a/b/c.ts', true],
    ['src/**', 'src/a/b', true],
    ['src/**', 'lib/a/b', false],
    ['*.{js,ts}', 'x.js', true],
    ['*.{js,ts}', 'x.py', false],
    ['f?o', 'foo', true],
    ['[ab]*', 'bz', true],
    ['[!ab]*', 'bz', false],
    ['[!ab]*', 'cz', true],
    ['a.b', 'axb', false],
    ['a+b(c)', 'a+b(c)', true], // no glob character: a plain part of the name
    ['*+b(c)', 'a+bc', true], // in a glob, picomatch reads (c) as a group
    ['*', '.env', true],
    ['**/**/**/x', 'x', true],
    ['**/**/**/x', 'a/b/x', true],
  ];
  for (const [g, s, want] of cases) assert.equal(nameTest(g)(s.split('/').pop() as string, s), want, `${g} vs ${s}`);
  assert.equal(isGlob('readme'), false);
  assert.equal(isGlob('*.md'), true);
  assert.equal(nameTest('README')('readme.md', 'docs/readme.md'), true);
});

test('a run of "**/" against a deep path is matched at once, not by backtracking', () => {
  const test_ = nameTest(`${'**/'.repeat(40)}x`);
  const deep = `${Array.from({ length: 60 }, (_, i) => `d${i}`).join('/')}/y`;
  // The old translation took minutes for this; a generous bound proves it no longer backtracks.
  const started = performance.now();
  assert.equal(test_('y', deep), false);
  assert.equal(test_('x', deep.replace(/y$/, 'x')), true);
  assert.ok(performance.now() - started < 1000);
});

test('file kinds by magic bytes', () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
  assert.deepEqual(detectKind(png), { kind: 'image', mimeType: 'image/png', name: 'PNG image' });
  assert.equal(detectKind(Buffer.from([0xff, 0xd8, 0xff, 0xe0])).kind, 'image');
  assert.equal(detectKind(Buffer.from('GIF89a....')).kind, 'image');
  assert.deepEqual(detectKind(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1')).kind, 'image');
  assert.deepEqual(detectKind(Buffer.from('SQLite format 3\0', 'latin1')), { kind: 'binary', name: 'SQLite database' });
  assert.deepEqual(detectKind(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1])), { kind: 'binary', name: 'ELF executable' });
  assert.deepEqual(detectKind(Buffer.from('abc\0def')), { kind: 'binary', name: 'unknown binary data' });
  assert.deepEqual(detectKind(Buffer.from('BMW cars are fast')), { kind: 'text' });
  assert.deepEqual(detectKind(Buffer.from('MZ is a text line')), { kind: 'text' });
  assert.deepEqual(detectKind(Buffer.from('héllo')), { kind: 'text' });
  assert.deepEqual(detectKind(Buffer.alloc(0)), { kind: 'text' });
});
