// A turn's end answers the approvals of that turn (no decision), never those an MCP App's view asked for: a
// view's call belongs to no turn, and only the person answers it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApprovalWaits } from '../../src/core/chat/approval-waits';
import type { ApprovalRequest } from '../../src/core/agent/types';
import type { ChatEvent } from '../../src/common/protocol';

const request = (callId: string, fromApp: boolean): ApprovalRequest =>
  ({
    callId,
    tool: { server: 's', tool: { name: 't', inputSchema: { type: 'object' } } },
    input: {},
    reason: 'r',
    alwaysKind: 'tool',
    ask: true,
    ...(fromApp ? { fromApp } : {}),
  }) as unknown as ApprovalRequest;

describe('approval waits', () => {
  test("a turn's end refuses its own waits, and a view's wait stays until the person answers", async () => {
    const events: ChatEvent[] = [];
    const waits = new ApprovalWaits({ record: (e) => events.push(e) });
    const signal = new AbortController().signal;
    const model = waits.ask(request('m1', false), signal);
    const view = waits.ask(request('app-1', true), signal);
    waits.endTurn();
    assert.equal(await model, 'deny');
    let settled = false;
    void view.then(() => (settled = true));
    await Promise.resolve();
    assert.equal(settled, false, "the view's call still waits");
    waits.answer('app-1', 'once');
    assert.equal(await view, 'once');
    assert.deepEqual(
      events.filter((e) => e.kind === 'approval'),
      [{ kind: 'approval', callId: 'app-1', decision: 'once' }],
    );
    assert.equal((events.find((e) => e.kind === 'approval_request' && e.callId === 'app-1') as { fromApp?: boolean }).fromApp, true);
  });
});
