// Sampling and elicitation a server asks as tasks (MCP 2025-11-25: `task` in the request, a CreateTaskResult back,
// then tasks/get, tasks/result, tasks/cancel, tasks/list sent to the host): against the official server-everything
// (its two async tools) and test/fakes/mcp-task-asker.ts, which asks and polls as it likes. The person's answers
// come through the same handlers as plain asks (the sampling broker, the elicitation handler, the chat's cards);
// sampling runs through the real Anthropic SDK against the fake Messages API.
import Anthropic from '@anthropic-ai/sdk';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ClientAsks } from '../../src/core/chat/client-asks';
import { composeHost } from '../../src/core/host/compose-host';
import { elicitationHandler, type ElicitationAsk } from '../../src/core/mcp/client/elicitation-handler';
import type { McpHub } from '../../src/core/mcp/hub/hub';
import type { ServerConfig } from '../../src/core/mcp/types';
import { SamplingBroker, type SamplingApproval, type SamplingDecision } from '../../src/core/sampling/sampling-broker';
import { FakeAnthropicApi } from '../fakes/anthropic-api';
import { RecordingCards } from '../support/recording-cards';
import { fakeConfig, textOf, waitForStatus, withHub } from './mcp-support';
import { everythingConfig } from '../support/outside-servers';
import { scaled } from '../support/until';

const T = { timeout: scaled(60_000) };
const everything: ServerConfig = everythingConfig();

type Outcome<R = Record<string, unknown>> = { result: R } | { error: { code: number; message: string } };
interface Task {
  taskId: string;
  status: string;
  statusMessage?: string;
  ttl: number | null;
}

describe('sampling and elicitation a server asks as tasks', () => {
  const api = new FakeAnthropicApi((body) => ({ text: `sampled: ${JSON.stringify(body.messages.at(-1)?.content).slice(0, 80)}` }));
  let client: Anthropic;
  before(async () => {
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
  });
  after(() => api.stop());

  function broker(decide: () => SamplingDecision, asked: SamplingApproval[]): SamplingBroker {
    return new SamplingBroker({
      ask: async (r) => {
        asked.push(r);
        return decide();
      },
      create: (body, signal) => client.messages.create(body, { signal }),
      models: async () => [],
      defaultModel: () => 'claude-sonnet-5-5',
    });
  }

  /** The host as the extension composes it, with the chat's cards answering for the person. */
  async function withCards(configs: ServerConfig[], body: (hub: McpHub, cards: RecordingCards, asks: ClientAsks) => Promise<void>): Promise<void> {
    const cards = new RecordingCards(client, 'claude-sonnet-5-5');
    const asks = new ClientAsks({ log: { info: () => undefined, warn: () => undefined }, openExternal: async () => undefined });
    asks.attach(cards);
    const { hub } = composeHost({ configs, roots: [], asks: asks.asks, models: asks.models });
    hub.start();
    try {
      for (const c of configs) await waitForStatus(hub, c.name, (s) => s.state === 'ready');
      await body(hub, cards, asks);
    } finally {
      await hub.dispose();
      asks.dispose();
    }
  }

  const call = async <R = unknown>(hub: McpHub, name: string, args: Record<string, unknown> = {}): Promise<R> =>
    JSON.parse(textOf(await hub.callTool(name, args, { timeoutMs: 60_000 }))) as R;

  test(
    "server-everything's async sampling: the person is asked what a plain request shows, the reply comes from the API; a denial fails the task with the spec's -1",
    T,
    async () => {
      const asked: SamplingApproval[] = [];
      let answer: SamplingDecision = 'once';
      const b = broker(() => answer, asked);
      await withHub([everything], { connection: { handlers: { sampling: b.handler }, closeGraceMs: 200 } }, async (hub) => {
        await waitForStatus(hub, 'everything', (s) => s.state === 'ready');
        const done = textOf(await hub.callTool('everything__trigger-sampling-request-async', { prompt: 'the sea', maxTokens: 33 }, { timeoutMs: 60_000 }));
        assert.match(done, /\[COMPLETED\] Async sampling completed!/, done);
        assert.match(done, /sampled: /, 'the reply is the Messages API’s');
        assert.match(done, /"io\.modelcontextprotocol\/related-task"/, 'tasks/result says whose result it is');
        assert.equal(asked.length, 1);
        assert.deepEqual([asked[0]?.server, asked[0]?.systemPrompt, asked[0]?.maxTokens], ['everything', 'You are a helpful test server.', 33]);
        assert.match(JSON.stringify(asked[0]?.messages), /the sea/);
        assert.match(JSON.stringify(api.requests.at(-1)?.body.messages), /the sea/);

        answer = 'deny';
        const before = api.requests.length;
        const denied = textOf(await hub.callTool('everything__trigger-sampling-request-async', { prompt: 'no' }, { timeoutMs: 60_000 }));
        assert.match(denied, /\[FAILED\] User rejected sampling request/, denied);
        assert.equal(api.requests.length, before, 'nothing reached the model');
      });
    },
  );

  test("server-everything's async elicitation: the same form, accepted with its content, declined, cancelled", T, async () => {
    let answer: 'accept' | 'decline' | 'cancel' = 'accept';
    const forms: string[][] = [];
    const ask: ElicitationAsk = {
      form: async (req) => {
        forms.push(req.form.fields.map((f) => `${f.name}:${f.kind}${f.required ? '!' : ''}`));
        return answer === 'accept' ? { action: 'accept', content: { name: 'Ada', favoriteColor: 'Blue' } } : { action: answer };
      },
    };
    await withHub([everything], { connection: { handlers: { elicitation: elicitationHandler(ask) }, closeGraceMs: 200 } }, async (hub) => {
      await waitForStatus(hub, 'everything', (s) => s.state === 'ready');
      const run = async () => textOf(await hub.callTool('everything__trigger-elicitation-request-async', {}, { timeoutMs: 60_000 }));
      const accepted = await run();
      assert.match(accepted, /\[COMPLETED\] User provided the requested information!/, accepted);
      assert.match(accepted, /- Name: Ada/);
      assert.match(accepted, /- Favorite Color: Blue/);
      assert.deepEqual(forms[0], ['name:text!', 'favoriteColor:select', 'agreeToTerms:boolean']);
      answer = 'decline';
      assert.match(await run(), /\[DECLINED\] User declined/);
      answer = 'cancel';
      assert.match(await run(), /\[CANCELLED\] User cancelled/);
      assert.equal(forms.length, 3);
    });
  });

  test('a task the server cancels takes its card back and is cancelled; its result is an error, a late answer changes nothing', T, async () => {
    await withCards([fakeConfig('asker', 'mcp-task-asker')], async (hub, cards, asks) => {
      const [created] = await call<Array<Outcome<{ task: Task }>>>(hub, 'asker__ask', { kind: 'form' });
      assert.ok(created && 'result' in created, JSON.stringify(created));
      const task = created.result.task;
      assert.equal(task.status, 'input_required', 'the person has to answer');
      const [card] = await cards.cards(1);
      assert.equal(card?.kind, 'form');
      assert.equal(card?.kind === 'form' && card.message, 'task form 0');
      const waiting = call<Outcome>(hub, 'asker__result', { taskId: task.taskId });

      const cancelled = await call<Outcome<Task>>(hub, 'asker__cancel', { taskId: task.taskId });
      assert.equal('result' in cancelled && cancelled.result.status, 'cancelled');
      assert.equal(await cards.settled(card!.askId), 'withdrawn');
      const result = await waiting;
      assert.ok('error' in result, `tasks/result waiting on the task ended with it: ${JSON.stringify(result)}`);
      assert.match(result.error.message, /cancelled/);
      asks.answer(card!.askId, { kind: 'form', action: 'accept', content: { name: 'late' } });
      const got = await call<Outcome<Task>>(hub, 'asker__get', { taskId: task.taskId });
      assert.equal('result' in got && got.result.status, 'cancelled');
      assert.equal(cards.posted.filter((m) => m.type === 'askSettled').length, 1);
    });
  });

  test('a task lives as long as its ttl: then its ask is withdrawn, a tasks/result waiting on it ends, and the task is gone', T, async () => {
    let withdrawn = (): void => undefined;
    const gone = new Promise<void>((resolve) => (withdrawn = resolve));
    const ask: ElicitationAsk = {
      // The person never answers; only the task's end takes the form back.
      form: (_req, signal) =>
        new Promise((resolve) =>
          signal.addEventListener('abort', () => {
            withdrawn();
            resolve({ action: 'cancel' });
          }),
        ),
    };
    const connection = { handlers: { elicitation: elicitationHandler(ask) }, clientTaskTtlMs: 300, closeGraceMs: 200 };
    await withHub([fakeConfig('asker', 'mcp-task-asker')], { connection }, async (hub) => {
      await waitForStatus(hub, 'asker', (s) => s.state === 'ready');
      const [created] = await call<Array<Outcome<{ task: Task }>>>(hub, 'asker__ask', { kind: 'form' });
      assert.ok(created && 'result' in created, JSON.stringify(created));
      assert.equal(created.result.task.ttl, 300, 'the host’s ttl, not the 60 s asked for');
      const taskId = created.result.task.taskId;
      const result = await call<Outcome>(hub, 'asker__result', { taskId });
      assert.ok('error' in result && /expired/i.test(result.error.message), JSON.stringify(result));
      await gone;
      const got = await call<Outcome>(hub, 'asker__get', { taskId });
      assert.deepEqual('error' in got && [got.error.code, /Unknown or expired task/.test(got.error.message)], [-32602, true]);
    });
  });

  test('a flood of tasks gets the limits plain asks get: two sampling cards and two forms, the rest fail at once, and the server stays usable', T, async () => {
    await withCards([fakeConfig('asker', 'mcp-task-asker')], async (hub, cards, asks) => {
      const sampling = await call<Array<Outcome<{ task: Task }>>>(hub, 'asker__ask', { kind: 'sampling', count: 20 });
      const forms = await call<Array<Outcome<{ task: Task }>>>(hub, 'asker__ask', { kind: 'form', count: 5 });
      const ids = (list: Array<Outcome<{ task: Task }>>) => list.map((o) => ('result' in o ? o.result.task.taskId : assert.fail(JSON.stringify(o))));
      const shown = await cards.cards(4);
      const ends = async (list: string[]) => Promise.all(list.map((taskId) => call<Outcome<Task>>(hub, 'asker__settle', { taskId })));
      const refusedSampling = (await ends(ids(sampling).slice(2))).map((o) => ('result' in o ? o.result : assert.fail(JSON.stringify(o))));
      const refusedForms = (await ends(ids(forms).slice(2))).map((o) => ('result' in o ? o.result : assert.fail(JSON.stringify(o))));
      assert.equal(refusedSampling.length, 18);
      for (const t of refusedSampling) {
        assert.equal(t.status, 'failed');
        assert.match(t.statusMessage ?? '', /too many sampling requests at once: asker may have 2 running/);
      }
      assert.equal(refusedForms.length, 3);
      for (const t of refusedForms) assert.match(t.statusMessage ?? '', /too many questions at once: asker already has 2 waiting/);
      assert.equal(cards.asks().length, 4, 'no card beyond the four');
      assert.equal(textOf(await hub.callTool('asker__echo', { text: 'still here' })), 'still here');
      const list = await call<Outcome<{ tasks: Task[] }>>(hub, 'asker__list');
      assert.equal('result' in list && list.result.tasks.length, 25, 'tasks/list shows the server its own tasks');

      const byKind = (kind: string) => shown.filter((c) => c.kind === kind);
      asks.answer(byKind('sampling')[0]!.askId, { kind: 'sampling', decision: 'once' });
      asks.answer(byKind('sampling')[1]!.askId, { kind: 'sampling', decision: 'deny' });
      asks.answer(byKind('form')[0]!.askId, { kind: 'form', action: 'accept', content: { name: 'Ada' } });
      asks.answer(byKind('form')[1]!.askId, { kind: 'form', action: 'decline' });
      const results = await Promise.all(
        [...ids(sampling).slice(0, 2), ...ids(forms).slice(0, 2)].map((taskId) => call<Outcome>(hub, 'asker__result', { taskId })),
      );
      const summary = results.map((r) => ('error' in r ? `${r.error.code} ${r.error.message}` : JSON.stringify({ ...r.result, _meta: undefined })));
      assert.equal(summary.filter((s) => /"role":"assistant".*sampled: /.test(s)).length, 1, summary.join('\n'));
      // The server's SDK prefixes the wire message with its code.
      assert.equal(summary.filter((s) => s === '-1 MCP error -1: User rejected sampling request').length, 1, summary.join('\n'));
      assert.ok(summary.includes('{"action":"accept","content":{"name":"Ada"}}'), summary.join('\n'));
      assert.ok(summary.includes('{"action":"decline"}'), summary.join('\n'));
      const late = await call<Outcome>(hub, 'asker__cancel', { taskId: ids(forms)[0]! });
      assert.deepEqual('error' in late && [late.error.code, late.error.message], [-32602, 'MCP error -32602: Cannot cancel task: it has already completed']);
    });
  });

  test('when the session ends, a task still asking takes its card back, and the next session knows nothing of it', T, async () => {
    await withCards([fakeConfig('asker', 'mcp-task-asker')], async (hub, cards) => {
      const [created] = await call<Array<Outcome<{ task: Task }>>>(hub, 'asker__ask', { kind: 'sampling' });
      const taskId = created && 'result' in created ? created.result.task.taskId : assert.fail(JSON.stringify(created));
      const [card] = await cards.cards(1);
      await hub.restart('asker');
      assert.equal(await cards.settled(card!.askId), 'withdrawn');
      await waitForStatus(hub, 'asker', (s) => s.state === 'ready');
      const got = await call<Outcome>(hub, 'asker__get', { taskId });
      assert.equal('error' in got && got.error.code, -32602, JSON.stringify(got));
    });
  });

  test('a 2026-07-28 server has no tasks of the host: a `task` in its input request is asked and answered as a plain one', T, async () => {
    const asked: string[] = [];
    const ask: ElicitationAsk = {
      form: async (req) => {
        asked.push(req.message);
        return { action: 'accept', content: { colour: 'red' } };
      },
    };
    const connection = { handlers: { elicitation: elicitationHandler(ask) }, closeGraceMs: 200 };
    await withHub([fakeConfig('modern', 'mcp-modern', '--modern-only')], { connection }, async (hub) => {
      const ready = await waitForStatus(hub, 'modern', (s) => s.state === 'ready');
      assert.equal(ready.era, 'modern');
      assert.equal(textOf(await hub.callTool('modern__ask_as_task', {}, { timeoutMs: 30_000 })), 'colour: red');
      assert.deepEqual(asked, ['Which colour?']);
    });
  });

  test("a server cannot reach a task it does not have: an unknown id, another server's task; each is the spec's -32602", T, async () => {
    await withCards([fakeConfig('a', 'mcp-task-asker'), fakeConfig('b', 'mcp-task-asker')], async (hub, cards) => {
      const [created] = await call<Array<Outcome<{ task: Task }>>>(hub, 'a__ask', { kind: 'form' });
      const taskId = created && 'result' in created ? created.result.task.taskId : assert.fail(JSON.stringify(created));
      await cards.cards(1);
      for (const [server, id] of [
        ['a', 'no-such-task'],
        ['b', taskId],
      ] as const) {
        for (const method of ['get', 'result', 'cancel']) {
          const r = await call<Outcome>(hub, `${server}__${method}`, { taskId: id });
          assert.ok('error' in r, `${server} ${method} ${id}: ${JSON.stringify(r)}`);
          assert.equal(r.error.code, -32602, r.error.message);
        }
      }
      const listed = await call<Outcome<{ tasks: Task[] }>>(hub, 'b__list');
      assert.deepEqual('result' in listed && listed.result.tasks, [], "b sees none of a's tasks");
      const own = await call<Outcome<Task>>(hub, 'a__get', { taskId });
      assert.equal('result' in own && own.result.status, 'input_required', 'a still has it, untouched');
      assert.equal(cards.posted.filter((m) => m.type === 'askSettled').length, 0, 'its card still waits');
    });
  });
});
