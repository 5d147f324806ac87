// OAuth discovery is no SSRF: the URLs an MCP server's metadata names (authorization server, registration
// and token endpoints) are checked before any request, and the config's headers go to the server only.
// The protected fake (test/fakes/oauth-server.ts) names a recorder that counts every request it gets: a
// refused URL never reaches it. The machine's own non-loopback address stands for "off this computer"
// and for a server on a private network. Real processes, real sockets.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { addressClass } from '../../src/node/address-class';
import { McpConnection } from '../../src/core/mcp/session/connection';
import type { HttpServerProcess } from './helpers/http-server-process';
import { startOAuthFake, testPerson } from './helpers/oauth-harness';
import { scaled } from '../support/until';

const T = { timeout: scaled(40_000) };

/** This machine's own address off loopback, of a private network if it has one. */
function ownAddress(): string | undefined {
  const addresses = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && !a.internal && !a.address.startsWith('fe80:'))
    .map((a) => a!.address);
  return addresses.find((a) => addressClass(a) === 'private') ?? addresses[0];
}
const OWN = ownAddress();
const PRIVATE = OWN && addressClass(OWN) === 'private' ? OWN : undefined;
const hostOf = (address: string): string => (address.includes(':') ? `[${address}]` : address);

interface Recorder {
  base: string;
  requests: Array<{ method: string; path: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

/** An HTTP server that writes down every request and answers 404. */
async function recorder(address: string): Promise<Recorder> {
  const requests: Recorder['requests'] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
  });
  server.listen(0, address);
  await once(server, 'listening');
  return {
    base: `http://${hostOf(address)}:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('OAuth discovery only goes where the server may send the host', () => {
  const running: Array<{ stop?: () => Promise<void>; close?: () => Promise<void> }> = [];
  after(async () => {
    await Promise.all(running.map((p) => (p.stop ?? p.close)!()));
  });
  const serve = async (...flags: string[]): Promise<HttpServerProcess> => {
    const p = await startOAuthFake(...flags);
    running.push(p);
    return p;
  };
  const record = async (address: string): Promise<Recorder> => {
    const r = await recorder(address);
    running.push(r);
    return r;
  };

  /** Connects; once that failed, `target` got no request at all, the failure is the refusal, and the person was asked `asked` times. */
  /** The guard's own words; `said` replaces them where something else refuses first (the SDK, below). */
  const GUARD_SAID = /^server named: signing in to .* was refused before any request: its OAuth metadata points at /;
  async function refused(url: string, target: Recorder, reason: RegExp, asked = 0, said = GUARD_SAID): Promise<void> {
    const person = testPerson();
    const conn = new McpConnection({ name: 'named', transport: 'http', url }, { oauth: person, closeGraceMs: 200 });
    const failure = await conn.start().then(
      () => new Error('connected'),
      (err: Error) => err,
    );
    await conn.close();
    assert.deepEqual(
      target.requests.map((r) => `${r.method} ${r.path}`),
      [],
    );
    assert.match(failure.message, said);
    assert.match(failure.message, reason);
    assert.equal(person.asked.length, asked);
  }

  for (const [flag, path] of [
    ['--authorization-server', '/'],
    ['--registration-endpoint', '/register'],
  ] as const) {
    test(
      `a server on this computer naming a plain-http address off it (${flag}): refused, and nothing reaches that address`,
      { ...T, skip: !OWN && 'no address off loopback' },
      async () => {
        const target = await record(OWN!);
        const server = await serve(`${flag}=${target.base}${path}`);
        await refused(server.url, target, PRIVATE ? /plain http off this computer/ : /never reached/);
      },
    );
  }

  test('the token endpoint too: the person signs in, then the code is not sent there', { ...T, skip: !OWN && 'no address off loopback' }, async () => {
    const target = await record(OWN!);
    const server = await serve(`--token-endpoint=${target.base}/token`);
    // The v2 SDK refuses a plain-http token endpoint off loopback itself (assertSecureTokenEndpoint), before the
    // host's guard sees the request: either way nothing reaches it, which is what this test is about.
    const sdkSaid = /^server named: signing in to .* failed: Refusing to send credentials to non-https token endpoint /;
    await refused(server.url, target, new RegExp(`${target.base.replace(/[.[\]]/g, '\\$&')}/token`), 1, sdkSaid);
  });

  test(
    "a server on a private network: its own metadata and registration are used over plain http (the person chose that address); only the browser's rule stops an http sign-in page",
    { ...T, skip: !PRIVATE && 'no private address' },
    async () => {
      const server = await serve(`--listen=${PRIVATE}`);
      const person = testPerson();
      const conn = new McpConnection({ name: 'intranet', transport: 'http', url: server.url }, { oauth: person, closeGraceMs: 200 });
      await assert.rejects(conn.start(), /authorization address with the scheme "http:", which is never opened/);
      await conn.close();
      assert.equal(person.asked.length, 0);
    },
  );

  test(
    'a server on a private network naming this computer: refused, and nothing on loopback is reached',
    { ...T, skip: !PRIVATE && 'no private address' },
    async () => {
      const local = await record('127.0.0.1');
      const server = await serve(`--listen=${PRIVATE}`, `--authorization-server=${local.base}/`);
      await refused(server.url, local, /is on this computer \(127\.0\.0\.1\) while the server itself is on a private network/);
    },
  );

  test("the config's headers go to the server only, never to the hosts its metadata names", T, async () => {
    const other = await record('127.0.0.1');
    const server = await serve('--sse', `--authorization-server=${other.base}/`);
    const person = testPerson();
    const conn = new McpConnection(
      { name: 'headers', transport: 'sse', url: server.url, headers: { 'X-Client-Version': 'ghp_the-persons-token' } },
      { oauth: person, closeGraceMs: 200 },
    );
    await assert.rejects(conn.start());
    await conn.close();
    assert.ok(other.requests.length > 0, 'the authorization server on this computer was asked for its metadata');
    for (const r of other.requests) assert.equal(r.headers['x-client-version'], undefined, `${r.method} ${r.path}`);
  });
});
