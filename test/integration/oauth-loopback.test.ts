// The loopback listener that catches the authorization server's redirect: real HTTP on 127.0.0.1.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { LoopbackRedirect } from '../../src/core/mcp/oauth/loopback-redirect';

const get = async (url: string): Promise<{ status: number; text: string }> => {
  const r = await fetch(url);
  return { status: r.status, text: await r.text() };
};

describe('the loopback redirect listener', () => {
  test('only a redirect with the state it expects is taken; a forged one gets 400 and changes nothing', async () => {
    const loopback = new LoopbackRedirect();
    try {
      const uri = await loopback.open();
      assert.match(uri, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const code = loopback.expect('right-state', 10_000);
      const forged = await get(`${uri}?code=evil&state=wrong-state`);
      assert.equal(forged.status, 400);
      const missing = await get(`${uri}?code=evil`);
      assert.equal(missing.status, 400);
      assert.equal((await get(uri.replace('/callback', '/other?state=right-state&code=x'))).status, 404);
      const real = await get(`${uri}?code=the-code&state=right-state`);
      assert.equal(real.status, 200);
      // No `iss` in the redirect: the SDK then applies RFC 9207's table (the server's metadata says whether one was due).
      assert.deepEqual(await code, { code: 'the-code' });
      // Used once: the same redirect again is unknown.
      assert.equal((await get(`${uri}?code=the-code&state=right-state`)).status, 400);
    } finally {
      loopback.close();
    }
  });

  test("an error redirect fails the flow with the server's words; the page reflects nothing back", async () => {
    const loopback = new LoopbackRedirect();
    try {
      const uri = await loopback.open();
      const code = loopback.expect('s1', 10_000);
      code.catch(() => undefined);
      const page = await get(`${uri}?error=access_denied&error_description=${encodeURIComponent('<script>alert(1)</script> no')}&state=s1`);
      assert.equal(page.status, 400);
      assert.doesNotMatch(page.text, /<script>/);
      await assert.rejects(code, /did not sign you in \(access_denied: <script>alert\(1\)<\/script> no\)/);
    } finally {
      loopback.close();
    }
  });

  test('the port used last time is taken again when free, another one when not', async () => {
    const first = new LoopbackRedirect();
    const port = Number(new URL(await first.open()).port);
    first.close();
    const again = new LoopbackRedirect();
    try {
      assert.equal(Number(new URL(await again.open(port)).port), port);
    } finally {
      again.close();
    }
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', () => resolve()));
    const moved = new LoopbackRedirect();
    try {
      const other = Number(new URL(await moved.open(port)).port);
      assert.notEqual(other, port);
    } finally {
      moved.close();
      blocker.close();
    }
  });

  test('a flow nobody finishes ends with a timeout that says so; close() ends waiting flows', async () => {
    const loopback = new LoopbackRedirect();
    await loopback.open();
    await assert.rejects(loopback.expect('never', 50), /nobody finished signing in within 0 s/);
    const waiting = loopback.expect('closing', 10_000);
    loopback.close();
    await assert.rejects(waiting, /closed before signing in finished/);
  });
});
