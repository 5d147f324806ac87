// What a turn says while nothing else shows it at work: each model request and its try, the wait before the
// SDK's next try after a 529 or a 429 (as retry-after says), thinking, a tool call being written.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../src/core/agent/agent';
import { newModelClient, type ModelClient } from '../../src/core/agent/model-client';
import type { AgentOutput } from '../../src/core/agent/types';
import type { TurnActivity } from '../../src/common/protocol';
import { activityText } from '../../src/common/activity-text';
import { FakeAnthropicApi, type Reply } from '../fakes/anthropic-api';
import { host, memoryStore } from '../fakes/tool-host';

describe('a turn says what it waits for', () => {
  const api = new FakeAnthropicApi();
  let client: ModelClient;
  before(async () => {
    client = newModelClient({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 2 });
  });
  after(() => api.stop());

  async function activities(script: Reply[]): Promise<{ status: string; said: TurnActivity[]; order: string[] }> {
    api.setScript(script);
    const tools = host({ ws__write_file: { run: async () => ({ content: [{ type: 'text', text: 'written' }] }) } });
    const agent = new Agent({ client, host: tools, model: 'claude-test', workspaceName: 'ws', approvals: memoryStore(), askApproval: async () => 'once' });
    const out: AgentOutput[] = [];
    const status = await agent.runTurn({ text: 'go' }, (o) => out.push(o), new AbortController().signal);
    return {
      status,
      said: out.flatMap((o) => (o.type === 'activity' ? [o.activity] : [])),
      order: out.map((o) => (o.type === 'activity' ? `activity:${o.activity.kind}` : o.type === 'event' ? `event:${o.event.kind}` : o.type)),
    };
  }

  test('a 529 and a 429 are said with the wait the API asked for and the try that comes next; then the request that answers', async () => {
    const { status, said } = await activities([{ error: 529, retryAfterMs: 30 }, { error: 429, retryAfterMs: 20 }, { text: 'Here it is.' }]);
    assert.equal(status, 'done');
    assert.deepEqual(said, [
      { kind: 'request', attempt: 1, attempts: 3 },
      { kind: 'retry', reason: 'overloaded', status: 529, waitMs: 30, attempt: 2, attempts: 3 },
      { kind: 'request', attempt: 2, attempts: 3 },
      { kind: 'retry', reason: 'rate_limited', status: 429, waitMs: 20, attempt: 3, attempts: 3 },
      { kind: 'request', attempt: 3, attempts: 3 },
    ]);
    assert.equal(activityText(said[1]!, 2), 'The API is overloaded; retrying in 2 s (try 2 of 3)');
    assert.equal(activityText(said[2]!, 3.4), 'Waiting for the model… 3 s (try 2 of 3)');
  });

  test('the last try failing is not announced as a retry: the turn ends with the error', async () => {
    const { status, said } = await activities([{ error: 529 }, { error: 529 }, { error: 529 }]);
    assert.equal(status, 'error');
    assert.deepEqual(
      said.map((a) => (a.kind === 'retry' ? `retry ${a.attempt} after ${a.waitMs}` : `${a.kind} ${a.kind === 'request' ? a.attempt : ''}`)),
      [
        // Without retry-after the SDK backs off 0.5 s, then 1 s (less a jitter): the most it waits is said.
        'request 1',
        'retry 2 after 500',
        'request 2',
        'retry 3 after 1000',
        'request 3',
      ],
    );
  });

  test('thinking and a tool call being written are said while they stream, before the events that show them', async () => {
    const { status, order, said } = await activities([
      { thinking: 'Which file?', text: 'Writing it.', toolUses: [{ name: 'ws__write_file', input: { path: 'a.md', content: 'x' } }] },
      { text: 'Done.' },
    ]);
    assert.equal(status, 'done');
    assert.ok(
      said.some((a) => a.kind === 'tool_input' && a.tool === 'write_file'),
      JSON.stringify(said),
    );
    const at = (s: string): number => order.indexOf(s);
    assert.ok(at('activity:thinking') < at('event:thinking'), order.join(' '));
    assert.ok(at('activity:tool_input') < at('event:tool_call'), order.join(' '));
    // The second model call, after the tool's result, is a request of its own.
    assert.equal(order.filter((o) => o === 'activity:request').length, 2);
  });
});
