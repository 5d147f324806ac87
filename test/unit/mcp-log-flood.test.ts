// A server's log budget (src/core/mcp/log-flood.ts): which stdout lines it recognises as log notifications
// before they are decoded, that it counts each line once, refills at its rate, and reports what it dropped.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LogFlood } from '../../src/core/mcp/transport/log-flood';

const line = (o: unknown): Buffer => Buffer.from(JSON.stringify(o));
const tsOrder = line({ method: 'notifications/message', params: { level: 'info', data: 'x' }, jsonrpc: '2.0' });
const pyOrder = Buffer.from('{ "jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "x"}}');
const answer = line({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '{"method":"notifications/message"}' }] } });
const progress = line({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } });
const logMessage = { jsonrpc: '2.0' as const, method: 'notifications/message', params: { level: 'info', data: 'x' } };

/** A budget on a clock the test moves, and the reports it made. */
function budget(perSecond: number, burst: number) {
  let now = 0;
  const reports: number[] = [];
  const flood = new LogFlood({ perSecond, burst, report: (n) => reports.push(n), reportMs: 60_000, now: () => now });
  return { flood, reports, advance: (ms: number) => (now += ms) };
}

describe('a server log budget', () => {
  test('with budget left no line is dropped, and a kept line is counted once (when parsed)', () => {
    const { flood } = budget(0, 2);
    assert.equal(flood.dropsLine(tsOrder), false);
    assert.equal(flood.dropsLine(tsOrder), false, 'looking at a line takes nothing from the budget');
    assert.equal(flood.admit(logMessage), true);
    assert.equal(flood.admit(logMessage), true);
    assert.equal(flood.admit(logMessage), false, 'the third is over a budget of 2');
  });

  test('past the budget, log lines in either key order are dropped unread; answers and other notifications never are', () => {
    const { flood } = budget(0, 0);
    assert.equal(flood.dropsLine(tsOrder), true);
    assert.equal(flood.dropsLine(pyOrder), true);
    assert.equal(flood.dropsLine(answer), false, 'an answer whose text names the method');
    assert.equal(flood.dropsLine(progress), false);
    assert.equal(flood.admit({ jsonrpc: '2.0', id: 3, result: {} }), true);
    assert.equal(flood.admit({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }), true);
    assert.equal(flood.admit(logMessage), false);
    assert.equal(flood.droppedTotal, 3);
  });

  test('it refills at its rate up to its burst, and says how many it dropped when closed', () => {
    const { flood, reports, advance } = budget(10, 5);
    for (let i = 0; i < 5; i++) assert.equal(flood.admit(logMessage), true);
    for (let i = 0; i < 7; i++) assert.equal(flood.admit(logMessage), false);
    advance(200);
    assert.equal(flood.admit(logMessage), true);
    assert.equal(flood.admit(logMessage), true);
    assert.equal(flood.admit(logMessage), false, '200 ms at 10 a second is 2 lines');
    advance(60_000);
    for (let i = 0; i < 5; i++) assert.equal(flood.admit(logMessage), true);
    assert.equal(flood.admit(logMessage), false, 'never more than the burst at once');
    flood.close();
    assert.deepEqual(reports, [9]);
    flood.close();
    assert.deepEqual(reports, [9], 'nothing new to report');
  });
});
