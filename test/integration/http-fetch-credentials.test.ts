import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { guardedFetch, limitsFromEnv } from '../../servers/lib/http-fetch.js';
import { parseAllowList } from '../../servers/lib/net-guard.js';
import { startUpstreams, type Upstreams } from '../fakes/upstreams.js';

/**
 * guardedFetch against two real local servers: a key or token goes only to the origin the fetch
 * started at, whether it is passed as a secret header or under a credential header name.
 */

describe('guardedFetch: credentials stay on their origin', () => {
  let first: Upstreams;
  let second: Upstreams;

  before(async () => {
    [first, second] = await Promise.all([startUpstreams(), startUpstreams()]);
  });

  after(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  const fetchVia = (path: string) =>
    guardedFetch(`${first.origin}${path}`, {
      allow: parseAllowList(`${first.hostPort},${second.hostPort}`),
      limits: limitsFromEnv({}),
      headers: { accept: 'text/plain', authorization: 'Bearer plain-token', cookie: 'session=1' },
      secretHeaders: { 'x-api-key': 'secret-key' },
    });

  test('a redirect to another origin is followed without them', async () => {
    const res = await fetchVia(`/redirect?to=${encodeURIComponent(`${second.origin}/plain.txt?cross`)}`);
    assert.equal(res.status, 200);
    assert.equal(res.secretsWithheld, true);
    const hop = second.requests.find((r) => r.path === '/plain.txt?cross');
    assert.ok(hop);
    for (const name of ['authorization', 'cookie', 'x-api-key']) assert.equal(hop.headers[name], undefined, name);
    assert.equal(hop.headers.accept, 'text/plain', 'other headers still go');
    const start = first.requests.find((r) => r.path.startsWith('/redirect?'));
    assert.equal(start?.headers['x-api-key'], 'secret-key');
    assert.equal(start?.headers.authorization, 'Bearer plain-token');
  });

  test('the same server under another host name is another origin', async () => {
    const port = first.hostPort.split(':')[1];
    const res = await guardedFetch(`${first.origin}/redirect?to=${encodeURIComponent(`http://localhost:${port}/plain.txt?host`)}`, {
      allow: parseAllowList(`${first.hostPort},localhost:${port}`),
      limits: limitsFromEnv({}),
      secretHeaders: { 'x-api-key': 'secret-key' },
    });
    assert.equal(res.secretsWithheld, true);
    const hop = first.requests.find((r) => r.path === '/plain.txt?host');
    assert.ok(hop);
    assert.equal(hop.headers['x-api-key'], undefined);
  });

  test('a redirect within the origin keeps them', async () => {
    const res = await fetchVia('/redirect?to=/plain.txt?same');
    assert.equal(res.secretsWithheld, false);
    const hop = first.requests.find((r) => r.path === '/plain.txt?same');
    assert.equal(hop?.headers['x-api-key'], 'secret-key');
    assert.equal(hop?.headers.authorization, 'Bearer plain-token');
  });
});
