// Whose page a URL opens (src/core/mcp/url-site.ts): the registrable domain by the Public Suffix List, so a
// look-alike host names its real site, and an international name with how it reads.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { urlSite } from '../../src/core/mcp/client/url-site';

const site = (url: string) => urlSite(new URL(url));

describe('the site of a URL', () => {
  test('a look-alike host belongs to its registrable domain', () => {
    assert.deepEqual(site('https://login.example.com.evil.io/signin'), { host: 'login.example.com.evil.io', domain: 'evil.io' });
    assert.deepEqual(
      site('https://accounts.google.com.secure-login.co.uk/'),
      { host: 'accounts.google.com.secure-login.co.uk', domain: 'secure-login.co.uk' },
      'co.uk is a suffix, not a site',
    );
    assert.deepEqual(
      site('https://paypal.attacker.github.io/'),
      { host: 'paypal.attacker.github.io', domain: 'attacker.github.io' },
      'each github.io page is its own site',
    );
    assert.deepEqual(site('https://example.com:8443/x'), { host: 'example.com:8443', domain: 'example.com' });
  });

  test('an IP address, localhost or a bare name is its own site', () => {
    assert.equal(site('http://127.0.0.1:3000/cb').domain, '127.0.0.1');
    assert.equal(site('http://[::1]:3000/cb').domain, '[::1]');
    assert.equal(site('http://localhost:3000/cb').domain, 'localhost');
    assert.equal(site('http://intranet/').domain, 'intranet');
  });

  test('an international name keeps its xn-- form and says how it reads', () => {
    assert.deepEqual(site('https://аpple.com/'), { host: 'xn--pple-43d.com', domain: 'xn--pple-43d.com', unicode: 'аpple.com' });
    assert.deepEqual(site('https://login.xn--80ak6aa92e.com/'), { host: 'login.xn--80ak6aa92e.com', domain: 'xn--80ak6aa92e.com', unicode: 'login.аррӏе.com' });
  });
});
