// Which URLs an MCP server's OAuth metadata may send the host to (discovery-rules.ts), as a pure
// function of the server's and the target's resolved addresses: no DNS, no traffic.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addressClass } from '../../src/node/address-class';
import { discoveryRefusal } from '../../src/core/mcp/oauth/discovery-rules';

const at = (url: string, ...addresses: string[]): { url: URL; addresses: string[] } => ({ url: new URL(url), addresses });
const PUBLIC = at('https://mcp.example.com/mcp', '93.184.216.34');
const INTRANET = at('https://10.0.0.5/mcp', '10.0.0.5');
const LOCAL = at('http://127.0.0.1:3000/mcp', '127.0.0.1');

describe('OAuth discovery: where a server may send the host', () => {
  test("the server's own origin always, plain http included: the person chose it", () => {
    assert.equal(discoveryRefusal(at('http://10.0.0.5:8080/mcp', '10.0.0.5'), at('http://10.0.0.5:8080/.well-known/oauth-authorization-server')), undefined);
    assert.equal(discoveryRefusal(PUBLIC, at('https://mcp.example.com/register')), undefined);
  });

  test('a public server: other public https hosts only', () => {
    assert.equal(discoveryRefusal(PUBLIC, at('https://auth.example.net/token', '198.51.99.7', '2606:4700::1')), undefined);
    assert.match(discoveryRefusal(PUBLIC, at('http://auth.example.net/token', '93.184.216.35')) ?? '', /plain http off this computer/);
    assert.match(
      discoveryRefusal(PUBLIC, at('https://127.0.0.1/register', '127.0.0.1')) ?? '',
      /on this computer \(127\.0\.0\.1\) while the server itself is on the public internet/,
    );
    assert.match(discoveryRefusal(PUBLIC, at('https://intranet.example/token', '10.1.2.3')) ?? '', /on a private network \(10\.1\.2\.3\)/);
    assert.match(
      discoveryRefusal(PUBLIC, at('https://rebind.example/', '93.184.216.34', '192.168.1.1')) ?? '',
      /192\.168\.1\.1/,
      'any one address is enough to refuse',
    );
  });

  test("an intranet server (the person's own, at a private address): its network and the internet, not this computer", () => {
    assert.equal(discoveryRefusal(INTRANET, at('https://sso.corp.example/token', '10.0.0.9')), undefined);
    assert.equal(discoveryRefusal(INTRANET, at('https://login.example.com/', '93.184.216.34')), undefined);
    assert.match(discoveryRefusal(INTRANET, at('https://localhost:8443/', '127.0.0.1', '::1')) ?? '', /on this computer/);
    assert.match(discoveryRefusal(INTRANET, at('http://10.0.0.9/token', '10.0.0.9')) ?? '', /plain http/);
  });

  test("a server on this computer (the tests' fakes, a local proxy): loopback http too", () => {
    assert.equal(discoveryRefusal(LOCAL, at('http://127.0.0.1:4000/token', '127.0.0.1')), undefined);
    assert.equal(discoveryRefusal(LOCAL, at('http://localhost:4000/', '::1', '127.0.0.1')), undefined);
    assert.equal(discoveryRefusal(LOCAL, at('https://github.com/login/oauth', '140.82.112.3')), undefined);
    assert.match(discoveryRefusal(LOCAL, at('http://10.0.0.9/register', '10.0.0.9')) ?? '', /plain http off this computer/);
  });

  test('link-local (cloud metadata), unspecified, multicast and reserved addresses never, whoever names them', () => {
    for (const server of [PUBLIC, INTRANET, LOCAL]) {
      assert.match(discoveryRefusal(server, at('https://169.254.169.254/latest', '169.254.169.254')) ?? '', /cloud metadata/);
      for (const address of ['0.0.0.0', '224.0.0.1', 'fe80::1', '192.0.2.1', '::ffff:169.254.169.254']) {
        assert.match(discoveryRefusal(server, at('https://x.example/', address)) ?? '', /never reached/, address);
      }
    }
  });

  test('a name that resolves both ways earns the trust of its public side; an unresolved name is refused', () => {
    const split = at('https://mcp.example.com/mcp', '93.184.216.34', '10.0.0.5');
    assert.match(discoveryRefusal(split, at('https://10.0.0.6/token', '10.0.0.6')) ?? '', /private network/);
    assert.match(discoveryRefusal(PUBLIC, at('https://nowhere.example/')) ?? '', /did not resolve/);
    assert.match(discoveryRefusal(PUBLIC, at('ftp://files.example/', '93.184.216.34')) ?? '', /not an http\(s\) address/);
    assert.match(discoveryRefusal(PUBLIC, at('https://u:p@auth.example/', '93.184.216.34')) ?? '', /user name or password/);
  });

  test('address classes', () => {
    const cases: Array<[string, string]> = [
      ['127.0.0.1', 'loopback'],
      ['::1', 'loopback'],
      ['[::1]', 'loopback'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['10.0.0.1', 'private'],
      ['172.16.0.1', 'private'],
      ['192.168.1.1', 'private'],
      ['100.64.0.1', 'private'],
      ['fd00::2', 'private'],
      ['::ffff:10.0.0.1', 'private'],
      ['93.184.216.34', 'public'],
      ['2606:4700:4700::1111', 'public'],
      ['169.254.169.254', 'special'],
      ['fe80::1', 'special'],
      ['0.0.0.0', 'special'],
      ['192.0.2.2', 'special'],
      ['not-an-ip', 'special'],
      ['fe80::1%eth0', 'special'],
    ];
    for (const [address, kind] of cases) assert.equal(addressClass(address), kind, address);
  });
});
