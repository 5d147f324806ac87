// OAuth 2.1 for remote MCP servers, end to end: the host's connection against a real protected MCP
// server and authorization server (test/fakes/oauth-server.ts, the SDK's server-side auth: metadata,
// dynamic registration, PKCE checked at the token endpoint), a browser that follows the real redirects
// to the host's loopback listener. Real processes, real sockets.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpConnection } from '../../src/core/mcp/session/connection';
import type { OAuthFrontEnd } from '../../src/core/mcp/oauth/front-end';
import type { HttpServerProcess } from './helpers/http-server-process';
import { browse, startOAuthFake, testPerson } from './helpers/oauth-harness';
import { textOf, waitForStatus, withHub } from './mcp-support';
import { untilReadyEnough } from '../../src/core/mcp/hub/readiness';
import { scaled } from '../support/until';

const T = { timeout: scaled(40_000) };
const running: HttpServerProcess[] = [];
async function serve(...flags: string[]): Promise<HttpServerProcess> {
  const p = await startOAuthFake(...flags);
  running.push(p);
  return p;
}

async function connected<T>(url: string, oauth: OAuthFrontEnd, body: (conn: McpConnection) => Promise<T>, transport: 'http' | 'sse' = 'http'): Promise<T> {
  const conn = new McpConnection({ name: 'guarded', transport, url }, { oauth, closeGraceMs: 200 });
  try {
    await conn.start();
    return await body(conn);
  } finally {
    await conn.close();
  }
}

const json = async (conn: McpConnection, tool: string): Promise<Record<string, unknown>> =>
  JSON.parse(textOf(await conn.callTool(tool))) as Record<string, unknown>;

describe('OAuth for remote MCP servers', () => {
  after(async () => {
    await Promise.all(running.map((p) => p.stop()));
  });

  test(
    'a 401 starts the flow: discovery, dynamic registration, PKCE, a resource indicator; the host is asked about; tokens are kept and used next time',
    T,
    async () => {
      const server = await serve();
      const person = testPerson();
      const who = await connected(server.url, person, (conn) => json(conn, 'whoami'));
      assert.equal(person.asked.length, 1);
      assert.equal(person.asked[0]?.host, `127.0.0.1:${server.port}`);
      assert.equal(person.asked[0]?.server, 'guarded');
      const params = person.asked[0]?.url.searchParams;
      assert.equal(params?.get('code_challenge_method'), 'S256');
      assert.ok(params?.get('code_challenge'));
      assert.ok(params?.get('state'));
      assert.match(params?.get('redirect_uri') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const visit = await person.visits[0];
      assert.equal(visit?.status, 200);
      assert.match(visit?.text ?? '', /signed in/i);
      assert.deepEqual(who.scopes, ['mcp']);
      assert.equal(who.resource, server.url, 'the token is bound to the MCP server (RFC 8707)');
      const record = await person.store.read(server.url);
      assert.ok(record?.tokens?.access_token && record.tokens.refresh_token);
      assert.equal(record?.client?.client_id, who.clientId);

      // A second connection with the same store: no question, no new registration.
      const stats = await connected(server.url, person, (conn) => json(conn, 'stats'));
      assert.equal(person.asked.length, 1);
      assert.deepEqual(stats, { registrations: 1, authorizations: 1, exchanges: 1, refreshes: 0 });
    },
  );

  test('the person may take longer than initialize may: signing in happens before initialize is sent', T, async () => {
    const server = await serve();
    const person = testPerson();
    const slow: OAuthFrontEnd = {
      ...person,
      // Reads the page for three times as long as initialize is given (a person is slow; that is the point).
      authorize: (request) => new Promise((resolve) => setTimeout(() => resolve(person.authorize(request)), 1500)),
    };
    const conn = new McpConnection({ name: 'slow', transport: 'http', url: server.url }, { oauth: slow, initializeTimeoutMs: 500, closeGraceMs: 200 });
    try {
      await conn.start();
      assert.deepEqual((await json(conn, 'whoami')).scopes, ['mcp']);
    } finally {
      await conn.close();
    }
    assert.equal(person.asked.length, 1);
  });

  test("a first turn waits for a sign-in under way past the other servers' grace, and sees the server's tools once it is done", T, async () => {
    const server = await serve();
    const person = testPerson();
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    // Says yes at once, then takes its time in the browser: until the test lets it go.
    const slowBrowser: OAuthFrontEnd = {
      ...person,
      authorize: async (request) => {
        person.asked.push(request);
        person.visits.push(finished.then(() => browse(request.url.href)));
        return true;
      },
    };
    const graceMs = 50;
    await withHub([{ name: 'guarded', transport: 'http', url: server.url }], { connection: { oauth: slowBrowser, closeGraceMs: 200 } }, async (hub) => {
      const signing = await waitForStatus(hub, 'guarded', (s) => s.signingIn !== undefined);
      assert.equal(signing.state, 'starting');
      assert.equal(signing.signingIn, `127.0.0.1:${server.port}`);
      assert.equal(signing.detail, `waiting for you to sign in at 127.0.0.1:${server.port}`);
      let ended = false;
      const ready = untilReadyEnough(hub, graceMs).then(() => (ended = true));
      // Well past the grace, counted from the start, the wait still holds.
      const since = signing.startingSince ?? Date.now();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, since + graceMs * 4 - Date.now())));
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(ended, false, 'the wait ended while the person was still signing in');
      finish();
      await ready;
      const status = hub.status('guarded');
      assert.equal(status?.state, 'ready');
      assert.ok(status?.tools.some((t) => t.name === 'whoami'));
      assert.equal(status?.signingIn, undefined);
    });
    assert.equal((await person.visits[0])?.status, 200);
  });

  test('an expired access token is refreshed without asking the person again', T, async () => {
    const server = await serve();
    const person = testPerson();
    await connected(server.url, person, async (conn) => {
      await json(conn, 'whoami');
      assert.equal(textOf(await conn.callTool('expire')), 'expired');
      // The next request gets 401; the SDK refreshes and sends it again.
      const stats = await json(conn, 'stats');
      assert.deepEqual(stats, { registrations: 1, authorizations: 1, exchanges: 1, refreshes: 1 });
    });
    assert.equal(person.asked.length, 1);
  });

  test('mid-session, tokens that can no longer be refreshed send the person to sign in again, and the request goes through after', T, async () => {
    const server = await serve();
    const person = testPerson();
    await connected(server.url, person, async (conn) => {
      await json(conn, 'whoami');
      assert.equal(textOf(await conn.callTool('revoke')), 'revoked');
      const stats = await json(conn, 'stats');
      assert.deepEqual(stats, { registrations: 1, authorizations: 2, exchanges: 2, refreshes: 0 });
    });
    assert.equal(person.asked.length, 2);
  });

  test('a 403 insufficient_scope sends the person to consent to the wider scope, then the call goes through', T, async () => {
    const server = await serve();
    const person = testPerson();
    await connected(server.url, person, async (conn) => {
      assert.deepEqual((await json(conn, 'whoami')).scopes, ['mcp']);
      const admin = await conn.callTool('admin');
      assert.equal(textOf(admin), 'admin done');
      assert.deepEqual((await json(conn, 'whoami')).scopes, ['mcp', 'admin']);
    });
    assert.equal(person.asked.length, 2);
    assert.equal(person.asked[1]?.url.searchParams.get('scope'), 'mcp admin');
  });

  for (const hostile of ['javascript:alert(document.cookie)//', 'file:///etc/passwd', 'http://example.invalid/authorize']) {
    test(`an authorization endpoint of ${hostile.split(':')[0]}: is refused before anyone is asked`, T, async () => {
      const server = await serve(`--auth-endpoint=${hostile}`);
      const person = testPerson();
      const conn = new McpConnection({ name: 'hostile', transport: 'http', url: server.url }, { oauth: person, closeGraceMs: 200 });
      await assert.rejects(conn.start(), (err: Error) => {
        // The SDK's own metadata check refuses javascript: first; ours (authorization-url.ts) refuses file: and any other scheme.
        const scheme = `${hostile.split(':')[0]}:`;
        assert.match(err.message, new RegExp(`^server hostile: .*(refused.*${scheme}|"${scheme}", which is never opened.*refused)`));
        return true;
      });
      assert.equal(conn.state, 'error');
      assert.equal(person.asked.length, 0, 'the person is never asked about it, the browser never opened');
      await conn.close();
    });
  }

  test('a person who declines gets an error that says so; nothing is stored', T, async () => {
    const server = await serve();
    const person = testPerson(false);
    const conn = new McpConnection({ name: 'declined', transport: 'http', url: server.url }, { oauth: person, closeGraceMs: 200 });
    await assert.rejects(
      conn.start(),
      /server declined: it asks you to sign in at 127\.0\.0\.1:\d+, which was declined; restart the server to be asked again$/,
    );
    await conn.close();
    assert.equal(person.asked.length, 1);
    assert.equal((await person.store.read(server.url))?.tokens, undefined);
  });

  test('over the older HTTP+SSE transport too', T, async () => {
    const server = await serve('--sse');
    const person = testPerson();
    const who = await connected(server.url, person, (conn) => json(conn, 'whoami'), 'sse');
    assert.deepEqual(who.scopes, ['mcp']);
    assert.equal(person.asked.length, 1);
  });

  test('a 2025-03-26 server is its own authorization server: its issuer on its own origin, with a path, is signed in to', T, async () => {
    const server = await serve('--no-resource-metadata', '--issuer-path=/oauth');
    const person = testPerson();
    const who = await connected(server.url, person, (conn) => json(conn, 'whoami'));
    assert.ok(who.clientId, 'called with a token of a registered client');
    assert.equal(person.asked.length, 1);
  });

  test('a server with protected-resource metadata keeps the issuer check: a mismatched issuer is refused before anyone is asked', T, async () => {
    const server = await serve('--issuer-path=/oauth');
    const person = testPerson();
    const conn = new McpConnection({ name: 'mixed', transport: 'http', url: server.url }, { oauth: person, closeGraceMs: 200 });
    await assert.rejects(conn.start(), /Issuer mismatch in authorization server metadata/);
    await conn.close();
    assert.equal(person.asked.length, 0);
  });

  test('a server given an Authorization header of its own is not signed in to by OAuth', T, async () => {
    const server = await serve();
    const person = testPerson();
    const conn = new McpConnection(
      { name: 'keyed', transport: 'http', url: server.url, headers: { Authorization: 'Bearer not-a-token' } },
      { oauth: person, closeGraceMs: 200 },
    );
    await assert.rejects(conn.start(), /HTTP 401/);
    await conn.close();
    assert.equal(person.asked.length, 0);
  });

  test('without a front end, a 401 says how to give a token', T, async () => {
    const server = await serve();
    const conn = new McpConnection({ name: 'plain', transport: 'http', url: server.url }, { closeGraceMs: 200 });
    await assert.rejects(
      conn.start(),
      /answered HTTP 401: .*it asks for authorization: sign in \(OAuth\), or give a token in the server's "headers" \(Authorization\)/,
    );
    await conn.close();
  });
});
