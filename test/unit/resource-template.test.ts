import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resourceTemplate } from '../../src/core/mcp/requests/resource-template';

test('a simple variable is asked once and its value percent-encoded', () => {
  const t = resourceTemplate('papers://{topic}/{topic}');
  assert.deepEqual(t.variables, ['topic']);
  assert.equal(t.expand({ topic: 'quantum computing/2?' }), 'papers://quantum%20computing%2F2%3F/quantum%20computing%2F2%3F');
});

test('operators are RFC 6570: query, reserved and path expansion', () => {
  const q = resourceTemplate('search://papers{?q,lang}');
  assert.deepEqual(q.variables, ['q', 'lang']);
  assert.equal(q.expand({ q: 'a b', lang: 'en' }), 'search://papers?q=a%20b&lang=en');
  assert.equal(resourceTemplate('file:///{+path}').expand({ path: 'src/a b.ts' }), 'file:///src/a%20b.ts');
  assert.equal(resourceTemplate('repo://x{/owner,name}').variables.length, 2);
});

test('a broken template is an error, not a wrong URI', () => {
  assert.throws(() => resourceTemplate('papers://{topic'), /Unclosed template expression/);
});
