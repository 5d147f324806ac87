import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { guardedFetch, limitsFromEnv } from '../../servers/lib/http-fetch.js';
import { BlockedUrlError, checkAddresses, isPublicAddress, parseAllowList, parseWebUrl } from '../../servers/lib/net-guard.js';
import { arxivConfigFromEnv } from '../../servers/research/server.js';
import { webConfigFromEnv } from '../../servers/web/server.js';
import { startTripwire, startUpstreams } from '../fakes/upstreams.js';

/** The address policy as pure functions: no DNS, no traffic to anything but loopback fakes. */

describe('net guard: addresses', () => {
  test('public unicast addresses pass', () => {
    for (const address of [
      '93.184.216.34',
      '8.8.8.8',
      '1.1.1.1',
      '2606:4700:4700::1111',
      '2a00:1450:4001:80b::200e',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ]) {
      assert.equal(isPublicAddress(address), true, address);
    }
  });

  test('everything not public unicast is refused', () => {
    const refused = [
      '127.0.0.1',
      '127.255.255.254',
      '0.0.0.0',
      '0.1.2.3',
      '10.0.0.1',
      '10.255.255.255',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '169.254.0.1',
      '100.64.0.1',
      '100.127.255.255',
      '224.0.0.1',
      '239.255.255.250',
      '255.255.255.255',
      '240.0.0.1',
      '192.0.2.1',
      '198.51.100.1',
      '203.0.113.1',
      '198.18.0.1',
      '192.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      'fec0::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '::ffff:0:127.0.0.1',
      '64:ff9b::7f00:1',
      '64:ff9b:1::808:808',
      '2002:7f00:1::1',
      '2002:a00:1::',
      '2001::1',
      '2001:db8::1',
      '::127.0.0.1',
      '100::1',
      'not-an-ip',
      '',
      '[::1]',
    ];
    for (const address of refused) assert.equal(isPublicAddress(address), false, address);
  });

  test('a public-looking name that resolves to a private address is refused, whichever address it is', () => {
    const url = new URL('http://innocent.example/');
    assert.throws(() => checkAddresses(url, ['127.0.0.1'], new Set()), /innocent\.example \(127\.0\.0\.1\): loopback/);
    assert.throws(() => checkAddresses(url, ['93.184.216.34', '10.1.2.3'], new Set()), /10\.1\.2\.3\): private/);
    assert.throws(() => checkAddresses(url, ['169.254.169.254'], new Set()), /cloud metadata/);
    assert.throws(() => checkAddresses(url, ['::ffff:192.168.1.1'], new Set()), /IPv4-mapped private/);
    assert.throws(() => checkAddresses(url, [], new Set()), /did not resolve/);
    checkAddresses(url, ['93.184.216.34', '2606:2800:220:1::1'], new Set());
  });

  test('the allow list lets exactly one host and port through', () => {
    const allow = parseAllowList(' 127.0.0.1:41234, [::1]:8080 ,localhost, bad:port, :99');
    assert.deepEqual([...allow].sort(), ['127.0.0.1:41234', '[::1]:8080']);
    checkAddresses(new URL('http://127.0.0.1:41234/x'), ['127.0.0.1'], allow);
    checkAddresses(new URL('http://[::1]:8080/'), ['::1'], allow);
    assert.throws(() => checkAddresses(new URL('http://127.0.0.1:41235/'), ['127.0.0.1'], allow), BlockedUrlError);
    assert.throws(() => checkAddresses(new URL('http://127.0.0.1/'), ['127.0.0.1'], allow), BlockedUrlError);
    assert.throws(() => checkAddresses(new URL('https://127.0.0.1:41234/'), ['127.0.0.1'], parseAllowList('127.0.0.1:443')), BlockedUrlError);
    checkAddresses(new URL('https://127.0.0.1/'), ['127.0.0.1'], parseAllowList('127.0.0.1:443'));
  });
});

describe('net guard: URLs', () => {
  test('only http and https URLs with a host are accepted', () => {
    assert.equal(parseWebUrl('https://example.com/a?b=1').href, 'https://example.com/a?b=1');
    for (const [url, pattern] of [
      ['file:///etc/passwd', /file: URLs are refused/],
      ['ftp://x', /ftp: URLs are refused/],
      ['gopher://x', /gopher: URLs are refused/],
      ['data:text/html,<script>', /data: URLs are refused/],
      ['ws://x', /ws: URLs are refused/],
      ['//x', /not a valid URL/],
      ['http://', /not a valid URL/],
      ['http://u:p@example.com/', /user name or password/],
    ] as const) {
      assert.throws(() => parseWebUrl(url), pattern, url);
    }
  });

  test('WHATWG URL parsing turns odd IPv4 spellings into the dotted address the guard checks', () => {
    for (const spelled of ['2130706433', '0x7f000001', '0x7f.1', '0177.0.0.1', '127.1', '017700000001']) {
      const url = parseWebUrl(`http://${spelled}/`);
      assert.equal(url.hostname, '127.0.0.1', spelled);
      assert.throws(() => checkAddresses(url, [url.hostname], new Set()), /loopback/);
    }
    assert.equal(parseWebUrl('http://[::ffff:127.0.0.1]/').hostname, '[::ffff:7f00:1]');
  });
});

describe('API base trust', () => {
  test('only base URLs the operator set are trusted, and only for the API tools', () => {
    const defaults = webConfigFromEnv({});
    assert.equal(defaults.apiAllow.size, 0, 'the public defaults stay guarded');
    const set = webConfigFromEnv({ ESPN_API_URL: 'http://127.0.0.1:9999/espn', WEATHER_API_URL: 'not a url', MCP_AGENT_FETCH_ALLOW: '127.0.0.1:8000' });
    assert.deepEqual([...set.apiAllow].sort(), ['127.0.0.1:8000', '127.0.0.1:9999']);
    assert.deepEqual([...set.allow], ['127.0.0.1:8000'], 'fetch_url does not inherit API trust');
    assert.deepEqual([...arxivConfigFromEnv({ ARXIV_API_URL: 'https://[::1]/api/query' }).apiAllow], ['[::1]:443']);
    assert.equal(arxivConfigFromEnv({}).apiAllow.size, 0);
  });
});

describe('guarded fetch', () => {
  test('a named host on the allow list connects to the checked address with the right Host header', async () => {
    const up = await startUpstreams();
    try {
      const port = up.hostPort.split(':')[1];
      const res = await guardedFetch(`http://localhost:${port}/host-echo`, {
        allow: parseAllowList(`localhost:${port}`),
        limits: limitsFromEnv({}),
      });
      assert.equal(res.body.toString(), `host=localhost:${port}`);
    } finally {
      await up.close();
    }
  });

  test('limits come from the environment, with safe defaults', () => {
    assert.deepEqual(limitsFromEnv({}), { maxBytes: 5 * 1024 * 1024, timeoutMs: 20_000, maxRedirects: 5 });
    assert.deepEqual(limitsFromEnv({ MCP_AGENT_FETCH_MAX_BYTES: '1000', MCP_AGENT_FETCH_TIMEOUT_MS: '50' }), {
      maxBytes: 1000,
      timeoutMs: 50,
      maxRedirects: 5,
    });
    assert.equal(limitsFromEnv({ MCP_AGENT_FETCH_MAX_BYTES: '-1' }).maxBytes, 5 * 1024 * 1024);
    assert.equal(limitsFromEnv({ MCP_AGENT_FETCH_TIMEOUT_MS: 'soon' }).timeoutMs, 20_000);
  });

  test('an aborted signal stops the fetch before it connects', async () => {
    const tripwire = await startTripwire();
    try {
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(
        guardedFetch(`http://127.0.0.1:${tripwire.port}/`, {
          allow: parseAllowList(`127.0.0.1:${tripwire.port}`),
          limits: limitsFromEnv({}),
          signal: controller.signal,
        }),
        /cancelled/,
      );
      assert.equal(tripwire.hits(), 0);
    } finally {
      await tripwire.close();
    }
  });
});
