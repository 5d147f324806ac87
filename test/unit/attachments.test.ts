import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAttachments } from '../../src/core/chat/attachments';

describe('attachments from the webview are read through the sandbox', () => {
  let base: string;
  let ws: string;
  before(() => {
    base = mkdtempSync(join(tmpdir(), 'attach-'));
    ws = join(base, 'ws');
    mkdirSync(join(ws, 'src'), { recursive: true });
    writeFileSync(join(ws, 'src', 'a.py'), 'one\ntwo\nthree\nfour\n');
    writeFileSync(join(base, 'secret.txt'), 'SECRET');
    mkdirSync(join(base, 'ws_evil'));
    writeFileSync(join(base, 'ws_evil', 'x.txt'), 'EVIL');
    symlinkSync(join(base, 'secret.txt'), join(ws, 'link.txt'));
    writeFileSync(join(ws, 'bin.dat'), Buffer.from([1, 0, 2, 0]));
    writeFileSync(join(ws, 'big.txt'), 'x'.repeat(300 * 1024));
    execFileSync('mkfifo', [join(ws, 'pipe')]);
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  test('a workspace file becomes a context block with its path', async () => {
    const { blocks, errors } = await readAttachments(ws, ['src/a.py']);
    assert.deepEqual(errors, []);
    assert.equal(blocks[0], '<attached_file path="src/a.py">\none\ntwo\nthree\nfour\n\n</attached_file>');
  });

  test('a line range attaches only those lines', async () => {
    const { blocks } = await readAttachments(ws, ['src/a.py#L2-3']);
    assert.equal(blocks[0], '<attached_file path="src/a.py" lines="2-3">\ntwo\nthree\n</attached_file>');
  });

  test('paths outside the workspace, symlinks out, binaries and FIFOs are refused with a reason', async () => {
    const refs = ['../secret.txt', join(base, 'secret.txt'), '../ws_evil/x.txt', 'link.txt', 'bin.dat', 'pipe', 'missing.txt', 'a\0b'];
    const { blocks, errors } = await readAttachments(ws, refs);
    assert.deepEqual(blocks, []);
    assert.equal(errors.length, refs.length);
    for (const e of errors) assert.match(e, /^Could not attach /);
    assert.ok(!errors.join('\n').includes('SECRET') && !errors.join('\n').includes('EVIL'));
  });

  test('a big file is cut with a note that says how to read the rest', async () => {
    const { blocks } = await readAttachments(ws, ['big.txt']);
    assert.match(blocks[0]!, /cut at 204800 of 307200 bytes; use read_file for the rest/);
  });
});
