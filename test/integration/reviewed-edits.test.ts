import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { proposeEdit } from '../../src/core/tool-call/proposed-edit';
import { ABSENT, contentHash, EXPECT_BASE } from '../../src/node/reviewed-edit';
import type { HubTool } from '../../src/core/mcp/types';
import { removeTree, startWorkspace, tempWorkspace, textOf, type Running } from './workspace-harness';

const tool = (name: string, server = 'workspace'): HubTool => ({
  server,
  qualifiedName: `${server}__${name}`,
  tool: { name, inputSchema: { type: 'object' } },
});

describe('proposeEdit: the change a write or edit would make', () => {
  let ws: string;
  before(() => {
    ws = tempWorkspace('ws-propose-');
    writeFileSync(join(ws, 'a.txt'), 'one\ntwo\nthree\n');
    writeFileSync(join(ws, 'crlf.txt'), 'one\r\ntwo\r\n');
    writeFileSync(join(ws, 'bin.dat'), Buffer.from([0, 1, 2, 0, 255]));
    mkdirSync(join(ws, 'sub'));
    symlinkSync('/etc/hostname', join(ws, 'sub', 'out.txt'));
  });
  after(() => removeTree(ws));

  test('a new file, an overwrite and an edit, each with the base it was reviewed against', async () => {
    const fresh = await proposeEdit(ws, tool('write_file'), { path: 'new/b.md', content: 'x\ny\n' });
    assert.deepEqual(
      { ...fresh, abs: undefined },
      { rel: 'new/b.md', abs: undefined, before: undefined, after: 'x\ny\n', base: ABSENT, summary: 'New file, 2 lines.', overwrites: false },
    );
    const over = await proposeEdit(ws, tool('write_file'), { path: 'a.txt', content: 'z\n' });
    assert.equal(over?.summary, 'Overwrites all 3 lines of a.txt (1 line after).');
    assert.equal(over?.overwrites, true);
    assert.equal(over?.base, contentHash('one\ntwo\nthree\n'));
    const edit = await proposeEdit(ws, tool('edit_file'), { path: 'a.txt', old_text: 'two\n', new_text: '2\n2b\n' });
    assert.equal(edit?.after, 'one\n2\n2b\nthree\n');
    assert.equal(edit?.summary, 'Replaces 1 line at line 2 with 2.');
    const crlf = await proposeEdit(ws, tool('edit_file'), { path: 'crlf.txt', old_text: 'one\ntwo', new_text: 'uno\ndos' });
    assert.equal(crlf?.after, 'uno\r\ndos\r\n');
  });

  test('nothing to review: outside, through a symlink out, binary, ambiguous, or another server', async () => {
    assert.equal(await proposeEdit(ws, tool('write_file'), { path: '../x', content: '' }), undefined);
    assert.equal(await proposeEdit(ws, tool('write_file'), { path: 'sub/out.txt', content: '' }), undefined);
    assert.equal(await proposeEdit(ws, tool('write_file'), { path: 'bin.dat', content: '' }), undefined);
    writeFileSync(join(ws, 'twice.txt'), 'a\na\n');
    assert.equal(await proposeEdit(ws, tool('edit_file'), { path: 'twice.txt', old_text: 'a', new_text: 'b' }), undefined);
    assert.equal(await proposeEdit(ws, tool('write_file', 'other'), { path: 'a.txt', content: '' }), undefined);
  });
});

describe('the workspace server writes only over the file that was reviewed', () => {
  let ws: string;
  let w: Running;
  before(async () => {
    ws = tempWorkspace('ws-reviewed-');
    w = await startWorkspace(ws);
  });
  after(async () => {
    await w.close();
    removeTree(ws);
  });
  const call = async (name: string, args: Record<string, unknown>, base: string): Promise<{ text: string; isError: boolean }> => {
    const r = (await w.client.callTool({ name, arguments: args, _meta: { [EXPECT_BASE]: base } })) as CallToolResult;
    return { text: textOf(r), isError: r.isError === true };
  };

  test('write_file and edit_file go ahead on the reviewed base and refuse any other', async () => {
    writeFileSync(join(ws, 'n.md'), 'v1\n');
    const reviewed = contentHash('v1\n');
    writeFileSync(join(ws, 'n.md'), 'v2 by the person\n');
    const stale = await call('write_file', { path: 'n.md', content: 'agent\n' }, reviewed);
    assert.equal(stale.isError, true);
    assert.match(stale.text, /"n\.md" was changed on disk after the person reviewed this change, so nothing was written/);
    assert.equal(readFileSync(join(ws, 'n.md'), 'utf8'), 'v2 by the person\n');
    const staleEdit = await call('edit_file', { path: 'n.md', old_text: 'v2', new_text: 'v3' }, reviewed);
    assert.equal(staleEdit.isError, true);
    const ok = await call('edit_file', { path: 'n.md', old_text: 'v2', new_text: 'v3' }, contentHash('v2 by the person\n'));
    assert.equal(ok.isError, false, ok.text);
    assert.equal(readFileSync(join(ws, 'n.md'), 'utf8'), 'v3 by the person\n');
    const created = await call('write_file', { path: 'new.md', content: 'x' }, ABSENT);
    assert.equal(created.isError, false, created.text);
    const again = await call('write_file', { path: 'new.md', content: 'y' }, ABSENT);
    assert.match(again.text, /was created by someone else/);
    assert.equal(readFileSync(join(ws, 'new.md'), 'utf8'), 'x');
  });
});
