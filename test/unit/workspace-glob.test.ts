import { test } from 'node:test';
import assert from 'node:assert/strict';
import { globToRegExp, isGlob } from '../../servers/workspace/glob';
import { detectKind } from '../../src/common/file-kind';

test('globs', () => {
  const cases: Array<[string, string, boolean]> = [
    ['*.ts', 'a.ts', true],
    ['*.ts', 'A.TS', true],
    ['*.ts', 'a/b.ts', false],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'a/b/c.ts', true],
    ['src/**', 'src/a/b', true],
    ['*.{js,ts}', 'x.js', true],
    ['*.{js,ts}', 'x.py', false],
    ['f?o', 'foo', true],
    ['[ab]*', 'bz', true],
    ['[!ab]*', 'bz', false],
    ['a.b', 'axb', false],
    ['a+b(c)', 'a+b(c)', true],
  ];
  for (const [g, s, want] of cases) assert.equal(globToRegExp(g).test(s), want, `${g} vs ${s}`);
  assert.equal(isGlob('readme'), false);
  assert.equal(isGlob('*.md'), true);
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
