import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LinearReadBuffer } from '../../src/core/mcp/transport/line-buffer';

const line = (msg: unknown): string => `${JSON.stringify(msg)}\n`;

function feed(buf: LinearReadBuffer, text: string, chunk: number): unknown[] {
  const bytes = Buffer.from(text);
  const out: unknown[] = [];
  for (let i = 0; i < bytes.length; i += chunk) {
    buf.append(bytes.subarray(i, i + chunk));
    for (let m = buf.readMessage(); m; m = buf.readMessage()) out.push(m);
  }
  return out;
}

describe('LinearReadBuffer', () => {
  test('reassembles messages split at any byte, including inside multi-byte characters', () => {
    const msgs = [
      { jsonrpc: '2.0', id: 1, result: { text: 'héllo wörld ✓ 日本' } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
      { jsonrpc: '2.0', id: 'a', result: {} },
    ];
    const text = msgs.map(line).join('');
    for (const chunk of [1, 2, 3, 7, 64, text.length]) {
      assert.deepEqual(feed(new LinearReadBuffer(), text, chunk), msgs, `chunk ${chunk}`);
    }
  });

  test('accepts CRLF and skips blank lines', () => {
    const buf = new LinearReadBuffer();
    buf.append(Buffer.from('\r\n\n{"jsonrpc":"2.0","id":1,"result":{}}\r\n'));
    assert.deepEqual(buf.readMessage(), { jsonrpc: '2.0', id: 1, result: {} });
    assert.equal(buf.readMessage(), null);
  });

  test('a non-JSON line throws once and the next message still comes through', () => {
    const buf = new LinearReadBuffer();
    buf.append(Buffer.from('hello there\n{"level":"info"}\n{"jsonrpc":"2.0","id":2,"result":{}}\n'));
    assert.throws(() => buf.readMessage(), /not JSON-RPC: "hello there"/);
    assert.throws(() => buf.readMessage(), /not JSON-RPC/);
    assert.deepEqual(buf.readMessage(), { jsonrpc: '2.0', id: 2, result: {} });
  });

  test('JSON glued to a log prefix on the same line is still read', () => {
    const buf = new LinearReadBuffer();
    buf.append(Buffer.from('[info] started {"jsonrpc":"2.0","id":3,"result":{}}\n'));
    assert.deepEqual(buf.readMessage(), { jsonrpc: '2.0', id: 3, result: {} });
  });

  test('an oversized response becomes an error response for its id (id last, as the SDK writes it)', () => {
    const buf = new LinearReadBuffer({ maxMessageBytes: 1000 });
    const big = `{"result":{"content":[{"type":"text","text":"${'x'.repeat(5000)}"}]},"jsonrpc":"2.0","id":42}\n`;
    const [reply, next] = feed(buf, big + line({ jsonrpc: '2.0', id: 43, result: {} }), 256);
    assert.equal((reply as { id: number }).id, 42);
    assert.match((reply as { error: { message: string } }).error.message, /over the host's limit/);
    assert.deepEqual(next, { jsonrpc: '2.0', id: 43, result: {} });
  });

  test('an oversized response with its id first, or a string id, is matched too', () => {
    const buf = new LinearReadBuffer({ maxMessageBytes: 100 });
    const [a, b] = feed(
      buf,
      `{"jsonrpc":"2.0","id":"req-7","result":{"t":"${'y'.repeat(500)}"}}\n{"jsonrpc":"2.0","id":8,"result":{"t":"${'z'.repeat(500)}"}}\n`,
      64,
    );
    assert.equal((a as { id: string }).id, 'req-7');
    assert.equal((b as { id: number }).id, 8);
  });

  test('an oversized message without an id (a notification) throws and is dropped', () => {
    const buf = new LinearReadBuffer({ maxMessageBytes: 100 });
    buf.append(Buffer.from(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${'q'.repeat(500)}"}}\n`));
    assert.throws(() => buf.readMessage(), /dropped a message without an id/);
    assert.equal(buf.readMessage(), null);
  });

  test('clear drops a partial line', () => {
    const buf = new LinearReadBuffer();
    buf.append(Buffer.from('{"jsonrpc":"2.0",'));
    buf.clear();
    buf.append(Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}\n'));
    assert.deepEqual(buf.readMessage(), { jsonrpc: '2.0', id: 1, result: {} });
  });
});
