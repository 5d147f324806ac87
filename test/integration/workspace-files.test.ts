import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { makeFiles, removeTree, serverPath, startWorkspace, tempWorkspace, textOf, type Running } from './workspace-harness';
import { scaled } from '../support/until';

let ws: string;
let outside: string;
let w: Running;

const PNG_1x1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

before(async () => {
  ws = tempWorkspace('ws-files-');
  outside = tempWorkspace('ws-outside-');
  writeFileSync(join(outside, 'secret.txt'), 'top secret');
  writeFileSync(join(ws, 'notes.txt'), 'alpha\nbeta\ngamma\n');
  writeFileSync(join(ws, 'image.png'), PNG_1x1);
  writeFileSync(join(ws, 'blob.bin'), Buffer.from([1, 2, 3, 0, 4, 5]));
  mkdirSync(join(ws, 'src'));
  writeFileSync(join(ws, 'src', 'app.py'), 'def main():\n    print("hello")\n');
  symlinkSync('/etc', join(ws, 'etc'));
  symlinkSync(outside, join(ws, 'out'));
  w = await startWorkspace(ws);
});

after(async () => {
  await w.close();
  removeTree(ws);
  rmSync(outside, { recursive: true, force: true });
});

async function ok(name: string, args: Record<string, unknown>): Promise<string> {
  const r = await w.call(name, args);
  assert.ok(!r.isError, `${name} failed: ${textOf(r)}`);
  return textOf(r);
}

async function fails(name: string, args: Record<string, unknown>, match: RegExp): Promise<string> {
  const r = await w.call(name, args);
  assert.equal(r.isError, true, `${name} should fail: ${textOf(r)}`);
  assert.match(textOf(r), match);
  return textOf(r);
}

describe('hostile paths', () => {
  const refusals: Array<[string, RegExp]> = [
    ['../../etc/passwd', /climbs out of the workspace/],
    ['/etc/passwd', /is outside the workspace/],
    ['notes\x00.txt', /NUL byte/],
    ['~/.ssh/id_rsa', /starts with "~"/],
    ['etc/passwd', /outside the workspace through a symlink/],
    ['out/secret.txt', /outside the workspace through a symlink/],
  ];
  for (const [p, re] of refusals) {
    test(`read_file refuses ${JSON.stringify(p)}`, async () => {
      const text = await fails('read_file', { path: p }, re);
      assert.doesNotMatch(text, /root:|top secret/);
    });
  }

  test('absolute paths with .. and sibling prefixes are refused', async () => {
    await fails('read_file', { path: `${ws}/../../etc/passwd` }, /outside the workspace/);
    await fails('read_file', { path: `${ws}_evil/x` }, /outside the workspace/);
    await fails('list_directory', { path: `${ws}2` }, /outside the workspace/);
    await fails('list_directory', { path: `${ws}-old` }, /outside the workspace/);
  });

  test('writes through a symlinked folder that leads out are refused', async () => {
    await fails('write_file', { path: 'out/new.txt', content: 'x' }, /outside the workspace through a symlink/);
    assert.equal(existsSync(join(outside, 'new.txt')), false);
    await fails('write_file', { path: '../escape.txt', content: 'x' }, /climbs out/);
    await fails('edit_file', { path: 'out/secret.txt', old_text: 'top', new_text: 'no' }, /outside the workspace/);
    assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'top secret');
  });

  test('allowed spellings of inside paths work', async () => {
    assert.match(await ok('list_directory', { path: ws }), /notes\.txt/);
    assert.match(await ok('list_directory', { path: ws + '/' }), /notes\.txt/);
    await ok('write_file', { path: './a//b/./c/file.txt', content: 'deep' });
    assert.equal(readFileSync(join(ws, 'a', 'b', 'c', 'file.txt'), 'utf8'), 'deep');
    for (const name of ['..test', 'te..st', '...']) {
      await ok('write_file', { path: name, content: name });
      assert.equal(await ok('read_file', { path: name }), name);
    }
  });
});

describe('read_file', () => {
  test('small text comes back whole, without notes', async () => {
    assert.equal(await ok('read_file', { path: 'notes.txt' }), 'alpha\nbeta\ngamma\n');
  });

  test('a 50 MB file is paged, first and far pages, with exact continue notes', async () => {
    const count = 1_000_000;
    const body = Buffer.from(Array.from({ length: count }, (_, i) => `row ${String(i + 1).padStart(7, '0')} ${'.'.repeat(38)}\n`).join(''));
    assert.ok(body.length >= 50_000_000);
    writeFileSync(join(ws, 'big.log'), body);
    const first = await ok('read_file', { path: 'big.log' });
    assert.ok(first.startsWith('row 0000001 '));
    assert.ok(first.endsWith(`[showing lines 1-2000 of ${count}; call read_file with offset=2001 to continue]`), first.slice(-200));
    const far = await ok('read_file', { path: 'big.log', offset: 987_654, limit: 2 });
    assert.match(far, /^row 0987654 \.+\nrow 0987655 \.+\n\[showing lines 987654-987655 of 1000000; call read_file with offset=987656 to continue\]$/);
    const last = await ok('read_file', { path: 'big.log', offset: count });
    assert.match(last, /^row 1000000 .*\n\[showing lines 1000000-1000000 of 1000000; end of file\]$/);
    await fails('read_file', { path: 'big.log', offset: count + 1 }, /past the end of the file: it has 1000000 lines/);
    const wide = await ok('read_file', { path: 'big.log', limit: 20000 });
    assert.match(wide, /\[showing lines 1-\d+ of 1000000 \(cut at 256 KiB\); call read_file with offset=\d+ to continue\]$/);
    rmSync(join(ws, 'big.log'));
  });

  test('images come back as image content', async () => {
    const r = await w.call('read_file', { path: 'image.png' });
    assert.ok(!r.isError);
    const img = r.content.find((c) => c.type === 'image');
    assert.ok(img && img.type === 'image');
    assert.equal(img.mimeType, 'image/png');
    assert.deepEqual(Buffer.from(img.data, 'base64'), PNG_1x1);
  });

  test('binary files, folders and FIFOs are refused without blocking', async () => {
    await fails('read_file', { path: 'blob.bin' }, /binary file \(unknown binary data, 6 bytes\)/);
    await fails('read_file', { path: 'src' }, /is a directory; use list_directory/);
    const fifo = join(ws, 'pipe');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    await fails('read_file', { path: 'pipe' }, /is a FIFO/);
    await fails('write_file', { path: 'pipe', content: 'x' }, /not a regular file/);
    assert.match(await ok('list_directory', {}), /pipe \(FIFO\)/);
    assert.match(await ok('search_files', { pattern: '*', content: 'never-there' }), /No lines match/);
    rmSync(fifo);
  });

  test('an empty file says so', async () => {
    writeFileSync(join(ws, 'empty.txt'), '');
    assert.match(await ok('read_file', { path: 'empty.txt' }), /empty: 0 bytes/);
  });
});

describe('write_file and edit_file', () => {
  test('creates with parents, overwrites atomically, reports bytes and lines', async () => {
    assert.equal(await ok('write_file', { path: 'new/dir/x.txt', content: 'one\ntwo\n' }), 'new/dir/x.txt: created (8 bytes, 2 lines)');
    assert.equal(await ok('write_file', { path: 'new/dir/x.txt', content: 'three' }), 'new/dir/x.txt: overwritten (5 bytes, 1 line)');
    assert.equal(readFileSync(join(ws, 'new', 'dir', 'x.txt'), 'utf8'), 'three');
  });

  test('refuses to write a symlink target, even one pointing inside', async () => {
    symlinkSync(join(ws, 'notes.txt'), join(ws, 'alias.txt'));
    await fails('write_file', { path: 'alias.txt', content: 'x' }, /is a symlink; writes never follow symlinks/);
    assert.ok(lstatSync(join(ws, 'alias.txt')).isSymbolicLink());
  });

  test('a symlinked folder cannot disguise a sensitive file', async () => {
    mkdirSync(join(ws, '.vscode'));
    symlinkSync(join(ws, '.vscode'), join(ws, 'cfg'));
    await fails('write_file', { path: 'cfg/tasks.json', content: '{}' }, /needs explicit approval.*real name/);
    assert.equal(existsSync(join(ws, '.vscode', 'tasks.json')), false);
  });

  test('edit_file replaces one exact occurrence', async () => {
    assert.match(await ok('edit_file', { path: 'src/app.py', old_text: 'print("hello")', new_text: 'print("bye")' }), /replaced 1 line at line 2/);
    assert.equal(readFileSync(join(ws, 'src', 'app.py'), 'utf8'), 'def main():\n    print("bye")\n');
  });

  test('edit_file failures say what to do', async () => {
    writeFileSync(join(ws, 'dup.txt'), 'x = 1\ny = 2\nx = 1\n');
    await fails('edit_file', { path: 'dup.txt', old_text: 'x = 1', new_text: 'x = 3' }, /occurs 2 times .*lines 1, 3.*add surrounding lines/);
    await fails('edit_file', { path: 'dup.txt', old_text: 'y =  2', new_text: 'y = 3' }, /not found.*Line 2 matches its first line except for whitespace/);
    await fails('edit_file', { path: 'dup.txt', old_text: 'why = 2', new_text: 'y = 3' }, /not found/);
    await fails('edit_file', { path: 'missing.txt', old_text: 'a', new_text: 'b' }, /does not exist; use write_file/);
    await fails('edit_file', { path: 'blob.bin', old_text: 'a', new_text: 'b' }, /binary file/);
  });

  test('three edit_file calls on one file at once all land', async () => {
    for (let round = 0; round < 5; round++) {
      writeFileSync(join(ws, 'together.txt'), 'one\ntwo\nthree\n');
      const edits = await Promise.all(
        ['one', 'two', 'three'].map((word) => w.call('edit_file', { path: 'together.txt', old_text: word, new_text: word.toUpperCase() })),
      );
      for (const r of edits) assert.ok(!r.isError, textOf(r));
      assert.equal(readFileSync(join(ws, 'together.txt'), 'utf8'), 'ONE\nTWO\nTHREE\n', `round ${round}`);
    }
  });

  test('edit_file matches CRLF files from LF text', async () => {
    writeFileSync(join(ws, 'win.txt'), 'a\r\nb\r\nc\r\n');
    await ok('edit_file', { path: 'win.txt', old_text: 'a\nb', new_text: 'A\nB' });
    assert.equal(readFileSync(join(ws, 'win.txt'), 'utf8'), 'A\r\nB\r\nc\r\n');
  });
});

describe('list_directory and search_files', () => {
  test('tree with sizes, symlinks shown and not followed, ignored folders skipped', async () => {
    mkdirSync(join(ws, 'node_modules', 'pkg'), { recursive: true });
    writeFileSync(join(ws, 'node_modules', 'pkg', 'index.js'), '');
    const tree = await ok('list_directory', { depth: 3 });
    assert.match(tree, /^\.\/\n/);
    assert.match(tree, / {2}notes\.txt \(17 bytes\)/);
    assert.match(tree, / {2}src\/\n {4}app\.py/);
    assert.match(tree, /etc -> \/etc \(symlink, not followed\)/);
    assert.match(tree, /node_modules\/ \(skipped; include_ignored: true lists it\)/);
    assert.doesNotMatch(tree, /index\.js/);
    assert.match(await ok('list_directory', { depth: 3, include_ignored: true }), /index\.js/);
    await fails('list_directory', { path: 'notes.txt' }, /is a file, not a folder/);
  });

  test('a folder of 200,000 entries is capped and the rest counted', async () => {
    const big = join(ws, 'huge');
    mkdirSync(big);
    makeFiles(
      big,
      Array.from({ length: 200_000 }, (_, i): [string, string] => [`f${String(i).padStart(6, '0')}`, '']),
    );
    const text = await ok('list_directory', { path: 'huge' });
    const shown = text.split('\n').filter((l) => /^ {2}f\d{6}/.test(l)).length;
    assert.equal(shown, 1000);
    assert.match(text, /… (at least )?\d+ more entries not shown/);
    assert.match(text, /\[listing stopped at 1000 entries/);
    const names = await ok('search_files', { pattern: 'f19999', path: 'huge' });
    assert.match(names, /^10 files matching "f19999":/);
    const capped = await ok('search_files', { pattern: 'f', path: 'huge', max_results: 5 });
    assert.match(capped, /^5 files matching "f":[\s\S]*\[stopped at 5 matching files; narrow the pattern/);
    removeTree(big);
  });

  test('search by name, glob and content, with ignored folders skipped', async () => {
    mkdirSync(join(ws, 'many'));
    makeFiles(
      join(ws, 'many'),
      Array.from({ length: 10_000 }, (_, i): [string, string] => [`file${i}.${i % 2 ? 'md' : 'txt'}`, i === 4242 ? 'needle here\n' : 'hay\n']),
    );
    assert.match(await ok('search_files', { pattern: 'FILE4242' }), /^1 file matching "FILE4242":\nmany\/file4242\.txt$/);
    assert.match(await ok('search_files', { pattern: 'many/*.md', max_results: 1000 }), /^1000 files matching/);
    const found = await ok('search_files', { pattern: '*.txt', content: 'need+le' });
    assert.match(found, /^1 matching line in \d+ files searched:\nmany\/file4242\.txt:1: needle here$/);
    assert.match(await ok('search_files', { pattern: '*', content: 'NEEDLE', ignore_case: true }), /file4242\.txt:1:/);
    assert.match(await ok('search_files', { pattern: 'index.js' }), /No file names match/);
    assert.match(await ok('search_files', { pattern: 'index.js', include_ignored: true }), /node_modules\/pkg\/index\.js/);
    await fails('search_files', { pattern: '*', content: '(' }, /not a valid regular expression/);
    removeTree(join(ws, 'many'));
  });

  test('a catastrophic regular expression does not freeze the server', async () => {
    writeFileSync(join(ws, 'redos.txt'), `${'a'.repeat(40)}!\n`);
    const quick = await startWorkspace(ws, { MCP_AGENT_SEARCH_TIMEOUT_S: '0.5' });
    try {
      const slow = quick.call('search_files', { pattern: 'redos.txt', content: '^(a+)+$' });
      // The server must still answer other calls while the worker spins.
      const other = await quick.call('read_file', { path: 'notes.txt' });
      assert.equal(textOf(other), 'alpha\nbeta\ngamma\n');
      assert.match(textOf(await slow), /content search stopped after 0.5 s \(a slow pattern\?\)/);
    } finally {
      await quick.close();
    }
  });
  test('a run of "**/" against a deep path answers at once', async () => {
    const deep = join(ws, 'deep', ...Array.from({ length: 24 }, (_, i) => `d${i}`));
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'y.txt'), 'y');
    writeFileSync(join(deep, 'x'), 'x');
    const pattern = `${'**/'.repeat(18)}x`;
    // Before, this glob backtracked for hours on a path 24 folders deep; 20 s proves it did not hang.
    const r = (await w.client.callTool({ name: 'search_files', arguments: { pattern, path: 'deep' } }, undefined, {
      timeout: scaled(20_000),
    })) as CallToolResult;
    assert.ok(!r.isError, textOf(r));
    assert.match(textOf(r), new RegExp(`^1 file matching .*\\n${deep.slice(ws.length + 1)}/x$`));
    removeTree(join(ws, 'deep'));
  });

  test('the server answers other calls while a slow glob is matched, and stops it', async () => {
    const slow = join(ws, 'slow');
    mkdirSync(slow);
    // Polynomial backtracking: each name takes long for a glob of many "*a".
    makeFiles(
      slow,
      Array.from({ length: 50 }, (_, i): [string, string] => [`${'a'.repeat(120)}${i}`, '']),
    );
    const quick = await startWorkspace(ws, { MCP_AGENT_SEARCH_TIMEOUT_S: '2' });
    try {
      const order: string[] = [];
      const search = quick.call('search_files', { pattern: `${'*a'.repeat(12)}*b`, path: 'slow' }).then((r) => {
        order.push('search');
        return r;
      });
      const listing = await quick.call('list_directory', { path: 'src' });
      order.push('list');
      assert.match(textOf(listing), /app\.py/);
      const r = await search;
      assert.deepEqual(order, ['list', 'search']);
      assert.ok(!r.isError, textOf(r));
      assert.match(textOf(r), /matching file names against the pattern stopped after 2 s/);
      // The stopped worker is replaced: the next search works.
      assert.match(textOf(await quick.call('search_files', { pattern: 'app.py' })), /^1 file matching "app\.py":\nsrc\/app\.py$/);
    } finally {
      await quick.close();
      removeTree(slow);
    }
  });
});

describe('protocol edges', () => {
  test('wrong argument types get an isError result with the field named', async () => {
    await fails('read_file', { path: 'notes.txt', offset: 'x' }, /Input validation error.*offset/);
    await fails('read_file', {}, /Input validation error.*path/);
    await fails('write_file', { path: 'a.txt', content: 42 }, /Input validation error.*content/);
  });

  test('every tool has honest annotations', async () => {
    const { tools } = await w.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    assert.deepEqual(Object.keys(byName).sort(), ['edit_file', 'list_directory', 'query_database', 'read_file', 'run_code', 'search_files', 'write_file']);
    for (const name of ['read_file', 'list_directory', 'search_files']) assert.equal(byName[name]?.readOnlyHint, true, name);
    for (const name of ['write_file', 'edit_file', 'run_code', 'query_database']) assert.equal(byName[name]?.readOnlyHint, false, name);
    assert.equal(byName.run_code?.openWorldHint, true);
  });
});

describe('process contract', () => {
  test('a missing or bad argument prints usage and exits non-zero', () => {
    const none = spawnSync(process.execPath, [serverPath()], { encoding: 'utf8' });
    assert.notEqual(none.status, 0);
    assert.match(none.stderr, /usage: node dist\/servers\/workspace\.js <workspace-dir>/);
    const bad = spawnSync(process.execPath, [serverPath(), join(ws, 'no-such-dir')], { encoding: 'utf8' });
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /is not a directory/);
  });

  test('exits on stdin EOF', async () => {
    const child = spawn(process.execPath, [serverPath(), ws], { stdio: ['pipe', 'pipe', 'pipe'] });
    const code = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    child.stdin.end();
    assert.equal(await code, 0);
  });
});
