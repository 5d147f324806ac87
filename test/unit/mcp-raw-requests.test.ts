// The Tasks extension's request path beside the SDK (src/core/mcp/task-ext/raw-requests.ts): answers matched by its
// own ids, progress on its tokens, time limits started again by progress, and what an abort puts on the wire.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { RawRequests } from '../../src/core/mcp/task-ext/raw-requests';

function coordinator(perRequestStream = false): { raw: RawRequests; sent: JSONRPCMessage[] } {
  const sent: JSONRPCMessage[] = [];
  const raw = new RawRequests(
    async (m) => void sent.push(m),
    () => perRequestStream,
  );
  return { raw, sent };
}

const idOf = (m: JSONRPCMessage | undefined): string => String((m as { id?: unknown } | undefined)?.id);

describe('RawRequests', () => {
  test('an answer with its id resolves its request; the SDK never sees it, nor answers that are not its own', async () => {
    const { raw, sent } = coordinator();
    const pending = raw.dispatch({ method: 'tasks/get', params: { taskId: 't1' } });
    assert.equal((sent[0] as { method?: string }).method, 'tasks/get');
    assert.equal(raw.take({ jsonrpc: '2.0', id: 7, result: {} }), false, 'a numeric id is the SDK’s');
    assert.equal(raw.take({ jsonrpc: '2.0', id: idOf(sent[0]), result: { status: 'working' } } as JSONRPCMessage), true);
    assert.deepEqual(await pending, { kind: 'result', result: { status: 'working' } });
    // A late answer to a request given up on is still ours: dropped, not handed to the SDK.
    assert.equal(raw.take({ jsonrpc: '2.0', id: idOf(sent[0]), result: {} } as JSONRPCMessage), true);
  });

  test('an error answer comes back as the response error', async () => {
    const { raw, sent } = coordinator();
    const pending = raw.dispatch({ method: 'tasks/get', params: { taskId: 'gone' } });
    raw.take({ jsonrpc: '2.0', id: idOf(sent[0]), error: { code: -32602, message: 'Task not found' } } as JSONRPCMessage);
    assert.deepEqual(await pending, { kind: 'error', error: { code: -32602, message: 'Task not found' } });
  });

  test('progress on a followed token reaches its follower and starts the request’s limit again', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { raw, sent } = coordinator();
    const seen: number[] = [];
    const { token, unfollow } = raw.follow((p) => seen.push(p.progress));
    const pending = raw.dispatch(
      { method: 'tools/call', params: { name: 'x', _meta: { progressToken: token } } },
      { context: { requestTimeoutMs: 60, resetTimeoutOnProgress: true } },
    );
    // Progress every 50 ms (mocked time) for 250 ms keeps a 60 ms limit from firing; the answer then comes.
    for (let i = 1; i <= 5; i++) {
      t.mock.timers.tick(50);
      assert.equal(raw.take({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: i } }), true);
    }
    raw.take({ jsonrpc: '2.0', id: idOf(sent[0]), result: { content: [] } } as JSONRPCMessage);
    assert.equal((await pending).kind, 'result');
    assert.deepEqual(seen, [1, 2, 3, 4, 5]);
    unfollow();
    assert.equal(raw.take({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 6 } }), false);
  });

  test('a request past its limit fails with the SDK’s timeout error', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { raw } = coordinator();
    const pending = raw.dispatch({ method: 'tasks/get', params: { taskId: 't' } }, { context: { requestTimeoutMs: 20 } });
    t.mock.timers.tick(20);
    await assert.rejects(pending, /timed out/);
  });

  test('an aborted tools/call is cancelled on the wire (stdio); a request about a task never is', async () => {
    const { raw, sent } = coordinator();
    const stop = new AbortController();
    const call = raw.dispatch({ method: 'tools/call', params: { name: 'x' } }, { signal: stop.signal });
    const poll = raw.dispatch({ method: 'tasks/get', params: { taskId: 't' } }, { signal: stop.signal });
    stop.abort(new Error('Stop'));
    await assert.rejects(call, /Stop/);
    await assert.rejects(poll, /Stop/);
    const cancels = sent.filter((m) => (m as { method?: string }).method === 'notifications/cancelled');
    assert.deepEqual(
      cancels.map((m) => (m as { params?: { requestId?: unknown } }).params?.requestId),
      [idOf(sent[0])],
    );
  });

  test('over a per-request stream (HTTP) an aborted tools/call closes its stream instead', async () => {
    const signals: AbortSignal[] = [];
    const raw = new RawRequests(
      async (_m, options) => void (options?.requestSignal && signals.push(options.requestSignal)),
      () => true,
    );
    const stop = new AbortController();
    const call = raw.dispatch({ method: 'tools/call', params: { name: 'x' } }, { signal: stop.signal });
    stop.abort(new Error('Stop'));
    await assert.rejects(call, /Stop/);
    assert.equal(signals.length, 1);
    assert.equal(signals[0]!.aborted, true);
  });

  test('a closed session fails what waits and what comes after', async () => {
    const { raw } = coordinator();
    const pending = raw.dispatch({ method: 'tasks/get', params: { taskId: 't' } });
    raw.close(new Error('connection closed'));
    await assert.rejects(pending, /connection closed/);
    await assert.rejects(raw.dispatch({ method: 'tasks/get', params: { taskId: 't' } }), /connection closed/);
  });
});
