import type { IncomingMessage } from 'node:http';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refusal } from '../../servers/lib/http-guard';

const req = (headers: Record<string, string>): IncomingMessage =>
  ({ headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])) }) as IncomingMessage;

test('Host must name loopback, with any port; a missing or odd Host is refused', () => {
  for (const host of ['127.0.0.1:4000', 'localhost:4000', '[::1]:4000', 'localhost']) assert.equal(refusal(req({ host }), 4000, undefined), undefined, host);
  for (const host of ['evil.example:4000', '127.0.0.1.nip.io:4000', '0.0.0.0:4000', '', 'a b'])
    assert.equal(refusal(req({ host }), 4000, undefined)?.status, 403, host);
  assert.equal(refusal(req({}), 4000, undefined)?.status, 403);
});

test('Origin, when sent, must be this very server', () => {
  const at = (origin: string) => refusal(req({ host: '127.0.0.1:4000', origin }), 4000, undefined)?.status;
  assert.equal(at('http://127.0.0.1:4000'), undefined);
  assert.equal(at('http://localhost:4000'), undefined);
  assert.equal(at('http://localhost:4001'), 403);
  assert.equal(at('https://127.0.0.1:4000'), 403);
  assert.equal(at('null'), 403);
  assert.equal(at('https://evil.example'), 403);
});

test('a bearer token, when set, must match exactly', () => {
  const with_ = (authorization?: string) => refusal(req({ host: '127.0.0.1:4000', ...(authorization ? { authorization } : {}) }), 4000, 'tok')?.status;
  assert.equal(with_('Bearer tok'), undefined);
  assert.equal(with_('bearer  tok'), undefined);
  assert.equal(with_(), 401);
  assert.equal(with_('Bearer to'), 401);
  assert.equal(with_('Bearer tokk'), 401);
  assert.equal(with_('Basic tok'), 401);
  // Host is checked first: a rebinding page learns nothing about the token.
  assert.equal(refusal(req({ host: 'evil.example' }), 4000, 'tok')?.status, 403);
});
