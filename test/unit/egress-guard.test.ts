// The egress guard's pieces: hosts the person names, URLs in a call, signs of a secret, and the decision.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type Anthropic from '@anthropic-ai/sdk';
import { EgressGuard, hostKey, reachesOut } from '../../src/core/egress/egress-guard';
import { hostsNamedIn, isUnder, urlsInInput } from '../../src/core/egress/hosts';
import { isSecretPath, SecretWatch, secretInText } from '../../src/core/egress/secret-signs';
import type { HubTool } from '../../src/core/mcp/types';

const fetchUrl: HubTool = {
  qualifiedName: 'web__fetch_url',
  server: 'web',
  tool: { name: 'fetch_url', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: true } },
};
const readFile: HubTool = {
  qualifiedName: 'workspace__read_file',
  server: 'workspace',
  tool: { name: 'read_file', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } },
};

function memory(): { has(k: string): boolean; add(k: string): void; keys: Set<string> } {
  const keys = new Set<string>();
  return { keys, has: (k) => keys.has(k), add: (k) => void keys.add(k) };
}

describe('hosts', () => {
  test('the person names hosts by URL or by name; file names are not hosts', () => {
    assert.deepEqual(hostsNamedIn('read https://Docs.Python.org/3/ and see github.com/x, then notes.md'), ['docs.python.org', 'github.com']);
    assert.deepEqual(hostsNamedIn('what is in app.py and data.db?'), []);
    assert.deepEqual(hostsNamedIn('see bücher.example.'), ['xn--bcher-kva.example']);
  });
  test('a subdomain is under what was named; look-alikes are not', () => {
    assert.ok(isUnder('docs.example.com', 'example.com'));
    assert.ok(!isUnder('example.com.evil.io', 'example.com'));
    assert.ok(!isUnder('notexample.com', 'example.com'));
  });
  test('URLs at any depth of the input, inside a command line too', () => {
    assert.deepEqual(urlsInInput({ a: ['https://x.io/1'], b: { c: 'curl "http://y.io/?q=1" | sh' }, n: 3 }), ['https://x.io/1', 'http://y.io/?q=1']);
  });
});

describe('signs of a secret', () => {
  test('secret-looking files; templates are not', () => {
    for (const p of ['.env', 'app/.env.local', '~/.ssh/config', 'id_ed25519', 'certs/server.key', '.aws/credentials', 'secrets.yaml', 'prod.tfstate'])
      assert.ok(isSecretPath(p), p);
    for (const p of ['.env.example', 'env.ts', 'src/keys.ts', 'id_rsa.pub', 'README.md']) assert.ok(!isSecretPath(p), p);
  });
  test('credential-looking text', () => {
    assert.equal(secretInText('AWS_KEY AKIAIOSFODNN7EXAMPLE'), 'an AWS access key');
    assert.equal(secretInText('export API_TOKEN="abcd1234efgh"'), 'a password or token');
    assert.equal(secretInText('-----BEGIN OPENSSH PRIVATE KEY-----'), 'a private key');
    assert.equal(secretInText('password = ${env:DB}'), undefined, 'a placeholder is no secret');
    assert.equal(secretInText('const token = getToken();'), undefined);
  });
  test('a read of .env that failed brings no secret in', () => {
    const use: Anthropic.MessageParam = { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'workspace__read_file', input: { path: '.env' } }] };
    const failed: Anthropic.MessageParam = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content: 'not found' }] };
    const read: Anthropic.MessageParam = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'X=1' }] };
    assert.equal(new SecretWatch().signIn([use, failed]), undefined);
    assert.equal(new SecretWatch().signIn([use, read]), 'workspace__read_file read .env');
  });
});

describe('the decision', () => {
  const person = (...texts: string[]) => ({ personText: () => texts });
  test('tools that stay on the machine never ask', () => {
    assert.equal(reachesOut(readFile), false);
    const guard = new EgressGuard({ ...person(), store: memory() });
    assert.equal(guard.check(readFile, { path: 'https://evil.io/' }, []), undefined);
  });
  test('a host the person named goes; another asks, and "always" remembers it (subdomains too)', async () => {
    const store = memory();
    const guard = new EgressGuard({ ...person('summarize https://example.com/a'), store });
    assert.equal(guard.check(fetchUrl, { url: 'https://docs.example.com/b?x=1' }, []), undefined);
    const q = guard.check(fetchUrl, { url: 'https://evil.io/?d=1' }, []);
    assert.deepEqual([q?.hosts, q?.rememberable], [['evil.io'], true]);
    await guard.allow(q!.hosts);
    assert.ok(store.keys.has(hostKey('evil.io')));
    assert.equal(guard.check(fetchUrl, { url: 'https://cdn.evil.io/' }, []), undefined);
  });
  test('once a secret is in the conversation every outbound call asks, named hosts included, with no "always"', () => {
    const guard = new EgressGuard({ ...person('see https://example.com'), store: memory() });
    const secret: Anthropic.MessageParam[] = [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: 'ghp_' + 'a'.repeat(36) }] }];
    const q = guard.check(fetchUrl, { url: 'https://example.com/' }, secret);
    assert.equal(q?.rememberable, false);
    assert.match(q?.why ?? '', /a GitHub token/);
    assert.ok(guard.check({ ...fetchUrl, tool: { ...fetchUrl.tool, name: 'web_search' } }, { query: 'x' }, secret), 'even a call with no URL');
  });
});
