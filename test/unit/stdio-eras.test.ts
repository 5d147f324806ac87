// servers/lib/stdio-eras.ts: the first message a stdio client sends picks the era, and nothing sent before the
// chosen server is listening is lost or reordered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { EraRouter, opensModernSession } from '../../servers/lib/stdio-eras';

const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };

test('server/discover or the _meta envelope opens a 2026-07-28 session; initialize and the rest, 2025-11-25', () => {
  assert.equal(opensModernSession({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: envelope } }), true);
  assert.equal(opensModernSession({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope } }), true);
  assert.equal(opensModernSession({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } }), false);
  assert.equal(opensModernSession({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), false);
  assert.equal(opensModernSession(undefined), false);
});

test('messages that come before the server listens reach it once it does, in order; the era is asked once', async () => {
  const sent: JSONRPCMessage[] = [];
  const inner = { send: async (m: JSONRPCMessage) => void sent.push(m), close: async () => undefined, start: async () => undefined } as Transport;
  const eras: string[] = [];
  let listening!: () => void;
  const served = new Promise<void>((resolve) => (listening = resolve));
  const router = new EraRouter(
    inner,
    async (era, session) => {
      eras.push(era);
      await served;
      session.onmessage = (m) => got.push(m);
    },
    (err) => assert.fail(String(err)),
  );
  const got: JSONRPCMessage[] = [];
  const msg = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: envelope } });
  router.receive(msg(1));
  router.receive(msg(2));
  listening();
  await new Promise((r) => setTimeout(r, 0));
  router.receive(msg(3));
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(eras, ['modern']);
  assert.deepEqual(
    got.map((m) => (m as { id: number }).id),
    [1, 2, 3],
  );
  await router.send(msg(4));
  assert.equal(sent.length, 1);
});
