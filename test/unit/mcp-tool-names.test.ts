import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { qualifyTools, sanitizeName } from '../../src/core/mcp/hub/tool-names';

const tool = (name: string): Tool => ({ name, inputSchema: { type: 'object' } });
const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

describe('tool names', () => {
  test('plain <server>__<tool> when valid', () => {
    const named = qualifyTools([{ server: 'workspace', tools: [tool('read_file'), tool('search')] }]);
    assert.deepEqual(
      named.map((t) => t.qualifiedName),
      ['workspace__read_file', 'workspace__search'],
    );
  });

  test('same tool name on two servers: distinct names', () => {
    const named = qualifyTools([
      { server: 'a', tools: [tool('echo')] },
      { server: 'b', tools: [tool('echo')] },
    ]);
    assert.deepEqual(
      named.map((t) => t.qualifiedName),
      ['a__echo', 'b__echo'],
    );
  });

  test('characters outside the alphabet, long names and clashes give valid unique names', () => {
    const long = 'x'.repeat(100);
    const named = qualifyTools([
      { server: 'my.server', tools: [tool('get/item'), tool('get.item'), tool(long), tool(`${long}y`), tool('日本')] },
      { server: 'my server', tools: [tool('get/item')] },
      { server: 'a__b', tools: [tool('c')] },
      { server: 'a', tools: [tool('b__c')] },
    ]);
    const names = named.map((t) => t.qualifiedName);
    for (const n of names) assert.match(n, VALID);
    assert.equal(new Set(names).size, names.length);
    assert.equal(names[6], 'a__b__c');
    assert.match(names[7] ?? '', /^a__b__c_[0-9a-f]{8}$/);
    assert.match(names[0] ?? '', /^my_server__get_item_[0-9a-f]{8}$/);
  });

  test('names do not depend on which other servers are up', () => {
    const alone = qualifyTools([{ server: 'b.x', tools: [tool('t')] }]);
    const together = qualifyTools([
      { server: 'a.x', tools: [tool('t')] },
      { server: 'b.x', tools: [tool('t')] },
    ]);
    assert.equal(alone[0]?.qualifiedName, together[1]?.qualifiedName);
  });

  test('sanitizeName never returns an empty name', () => {
    assert.equal(sanitizeName(''), '_');
    assert.equal(sanitizeName('a b-c'), 'a_b-c');
  });
});
