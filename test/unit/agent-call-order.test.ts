import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { Agent } from '../../src/core/agent/agent';
import type { AgentOutput, ApprovalRequest } from '../../src/core/agent/types';
import type { CallToolResult } from '../../src/core/mcp/types';
import type { ApprovalDecision, ChatEvent } from '../../src/common/protocol';
import { host, memoryStore, type FakeTool } from '../fakes/tool-host';
import { FakeAnthropicApi, type ToolUseStep } from '../fakes/anthropic-api';

const text = (s: string): CallToolResult => ({ content: [{ type: 'text', text: s }] });

/** How long a call waits for the others it should overlap with before it gives up and says it ran alone. */
const OVERLAP_DEADLINE_MS = 20_000;

/**
 * Tools that log when each call starts and ends; a call of `together` waits until `size` of them are in flight at
 * once (or the deadline passes, and it says it ran alone), so overlap is shown by what happened, not by timing.
 */
function recorder(size = 2) {
  const log: string[] = [];
  let inFlight = 0;
  const waiters: Array<() => void> = [];
  const step = (): Promise<void> => new Promise((r) => setImmediate(r));
  const plain: FakeTool['run'] = async (args) => {
    log.push(`start ${String(args.id)}`);
    await step();
    await step();
    log.push(`end ${String(args.id)}`);
    return text(String(args.id));
  };
  const together: FakeTool['run'] = async (args) => {
    log.push(`start ${String(args.id)}`);
    inFlight++;
    let met = inFlight >= size;
    if (met) for (const wake of waiters.splice(0)) wake();
    else {
      met = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), OVERLAP_DEADLINE_MS);
        waiters.push(() => (clearTimeout(timer), resolve(true)));
      });
    }
    inFlight--;
    log.push(`end ${String(args.id)}`);
    return text(met ? `${String(args.id)} ran with others` : `${String(args.id)} ran alone`);
  };
  return { log, plain, together };
}

describe('the calls of one reply run in the order the model wrote them', () => {
  const api = new FakeAnthropicApi();
  let client: Anthropic;
  before(async () => {
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
  });
  after(() => api.stop());

  async function run(tools: Record<string, FakeTool>, uses: ToolUseStep[], ask?: (r: ApprovalRequest) => Promise<ApprovalDecision>) {
    const store = memoryStore();
    const a = new Agent({
      client,
      host: host(tools),
      model: 'claude-test',
      workspaceName: 'ws',
      approvals: store,
      askApproval: ask ?? (async () => 'once'),
    });
    api.setScript([{ toolUses: uses }, { text: 'done' }]);
    const out: AgentOutput[] = [];
    const status = await a.runTurn({ text: 'go' }, (o) => out.push(o), new AbortController().signal);
    const events = out.filter((o): o is { type: 'event'; event: ChatEvent } => o.type === 'event').map((o) => o.event);
    const results = api.requests.at(-1)!.body.messages.at(-1)!.content as Array<{ tool_use_id: string; content: unknown }>;
    return { status, events, results };
  }

  test('a read written after a write starts once the write has ended', async () => {
    const r = recorder();
    const { status, results } = await run({ s__write: { run: r.plain }, s__read: { readOnly: true, run: r.plain } }, [
      { name: 's__write', input: { id: 'w' }, id: 'toolu_w' },
      { name: 's__read', input: { id: 'r' }, id: 'toolu_r' },
    ]);
    assert.equal(status, 'done');
    assert.deepEqual(r.log, ['start w', 'end w', 'start r', 'end r']);
    assert.deepEqual(
      results.map((x) => x.tool_use_id),
      ['toolu_w', 'toolu_r'],
    );
  });

  test('a write written after reads waits for them, and the reads after it wait for the write', async () => {
    const r = recorder();
    const tools = { s__write: { run: r.plain }, s__read: { readOnly: true, run: r.together } };
    const { results } = await run(tools, [
      { name: 's__read', input: { id: 'r1' } },
      { name: 's__read', input: { id: 'r2' } },
      { name: 's__write', input: { id: 'w' } },
      { name: 's__read', input: { id: 'r3' } },
      { name: 's__read', input: { id: 'r4' } },
    ]);
    const at = (entry: string): number => r.log.indexOf(entry);
    assert.ok(at('start w') > at('end r1') && at('start w') > at('end r2'), r.log.join(', '));
    assert.ok(at('start r3') > at('end w') && at('start r4') > at('end w'), r.log.join(', '));
    const texts = results.map((x) => JSON.stringify(x.content));
    for (const i of [0, 1, 3, 4]) assert.match(texts[i]!, /ran with others/, `call ${i}: ${texts[i]}`);
  });

  test('consecutive reads still run together: each waits until the other is in flight', async () => {
    const r = recorder(3);
    const { results } = await run({ s__read: { readOnly: true, run: r.together } }, [
      { name: 's__read', input: { id: 'a' } },
      { name: 's__read', input: { id: 'b' } },
      { name: 's__read', input: { id: 'c' } },
    ]);
    assert.deepEqual(
      results.map((x) => JSON.stringify(x.content)).map((t) => /ran with others/.test(t)),
      [true, true, true],
      JSON.stringify(results),
    );
    assert.deepEqual(r.log.slice(0, 3), ['start a', 'start b', 'start c']);
  });

  test('reads that run together still ask their questions one at a time, in order', async () => {
    const r = recorder();
    const asked: string[] = [];
    const open = new Set<string>();
    let overlapping = false;
    const ask = async (req: ApprovalRequest): Promise<ApprovalDecision> => {
      const url = String(req.input.url);
      asked.push(url);
      if (open.size > 0) overlapping = true;
      open.add(url);
      await new Promise((res) => setImmediate(res));
      await new Promise((res) => setImmediate(res));
      open.delete(url);
      return 'once';
    };
    // Read-only tools that reach out: each address the person never named is asked about (egress-guard.ts).
    const { results } = await run(
      { s__fetch: { readOnly: true, run: async (args) => (r.log.push(`fetch ${String(args.url)}`), text('page')) } },
      [
        { name: 's__fetch', input: { url: 'https://one.example/a' } },
        { name: 's__fetch', input: { url: 'https://two.example/b' } },
        { name: 's__fetch', input: { url: 'https://three.example/c' } },
      ],
      ask,
    );
    assert.equal(results.length, 3);
    assert.deepEqual(asked, ['https://one.example/a', 'https://two.example/b', 'https://three.example/c']);
    assert.equal(overlapping, false, 'a question was asked while another was still open');
  });
});
