// The client half of MCP through the hub, against real servers: the official server-everything (its
// sampling, elicitation, logging, subscription and completion features) and test/fakes/mcp-client-probe.ts
// for floods and malformed requests. Sampling runs through the real Anthropic SDK against the fake API.
import Anthropic from '@anthropic-ai/sdk';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClientHandlers, SinkLevel } from '../../src/core/mcp/client/client-handlers';
import { elicitationHandler, type ElicitationAsk } from '../../src/core/mcp/client/elicitation-handler';
import { type McpHub } from '../../src/core/mcp/hub/hub';
import type { SamplingHandler } from '../../src/core/mcp/client/client-handlers';
import { SamplingBroker, type SamplingApproval, type SamplingBrokerOptions, type SamplingDecision } from '../../src/core/sampling/sampling-broker';
import type { ServerConfig } from '../../src/core/mcp/types';
import { FakeAnthropicApi } from '../fakes/anthropic-api';
import { fakeConfig, textOf, waitForStatus, withHub as hubFor } from './mcp-support';
import { everythingConfig } from '../support/outside-servers';
import { scaled } from '../support/until';

const T = { timeout: scaled(60_000) };
const everything: ServerConfig = everythingConfig();
const probe = fakeConfig('probe', 'mcp-client-probe');

interface Logged {
  server: string;
  level: SinkLevel;
  text: string;
}

/** A hub with the given handlers; `logs` collects every sink line. */
function withHub(configs: ServerConfig[], handlers: ClientHandlers, body: (hub: McpHub) => Promise<void>): Promise<void> {
  return hubFor(configs, { connection: { handlers, closeGraceMs: 200 }, changeDebounceMs: 5 }, async (hub) => {
    await hub.settled();
    await body(hub);
  });
}

function logging(logs: Logged[], level?: 'debug' | 'error'): ClientHandlers['logging'] {
  return { sink: (server) => ({ log: (l, text) => void logs.push({ server, level: l, text }) }), level };
}

/** Resolves once `logs` holds a line matching `re` (checked on each new line). */
function logLine(logs: Logged[], re: RegExp): Promise<Logged> {
  return new Promise((resolve) => {
    const check = (): void => {
      const hit = logs.find((l) => re.test(l.text));
      if (hit) resolve(hit);
      else setImmediate(check);
    };
    check();
  });
}

describe('the client half of MCP through the hub', () => {
  const api = new FakeAnthropicApi((body) => ({ text: `sampled: ${JSON.stringify(body.messages.at(-1)?.content).slice(0, 80)}` }));
  let client: Anthropic;
  const usage: Array<{ server: string; model: string; output: number }> = [];
  before(async () => {
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
  });
  after(() => api.stop());

  function broker(
    decide: (r: SamplingApproval) => SamplingDecision | Promise<SamplingDecision>,
    asked: SamplingApproval[] = [],
    extra: Partial<SamplingBrokerOptions> = {},
  ): SamplingBroker {
    return new SamplingBroker({
      ask: async (r) => {
        asked.push(r);
        return decide(r);
      },
      create: (body, signal) => client.messages.create(body, { signal }),
      models: async () => [],
      defaultModel: () => 'claude-sonnet-5-5',
      onUsage: (server, model, u) => void usage.push({ server, model, output: u.output_tokens }),
      ...extra,
    });
  }

  test('server-everything offers its sampling and elicitation tools, plain and as tasks, only to a host that declares them', T, async () => {
    let bare = 0;
    await withHub([everything], {}, async (hub) => {
      bare = hub.status('everything')?.tools.length ?? 0;
      assert.ok(!hub.status('everything')?.tools.some((t) => t.name === 'trigger-sampling-request'));
    });
    const ask: ElicitationAsk = { form: async () => ({ action: 'cancel' }) };
    await withHub([everything], { sampling: broker(() => 'deny').handler, elicitation: elicitationHandler(ask) }, async (hub) => {
      const names = hub.status('everything')?.tools.map((t) => t.name) ?? [];
      assert.ok(names.includes('trigger-sampling-request'), names.join(', '));
      assert.ok(names.includes('trigger-elicitation-request'), names.join(', '));
      // The host declares it runs both as tasks (tasks.requests), so the server offers its async pair too.
      assert.ok(names.includes('trigger-sampling-request-async'), names.join(', '));
      assert.ok(names.includes('trigger-elicitation-request-async'), names.join(', '));
      assert.equal(names.length, bare + 4, `${bare} tools bare, now ${names.join(', ')}`);
      assert.equal(bare, 14);
    });
  });

  test("sampling: asked with what the server sent, run on the API, tokens reported; a denial is the spec's -1", T, async () => {
    const asked: SamplingApproval[] = [];
    let answer: SamplingDecision = 'once';
    const b = broker(() => answer, asked);
    await withHub([everything], { sampling: b.handler }, async (hub) => {
      const r = await hub.callTool('everything__trigger-sampling-request', { prompt: 'the sky', maxTokens: 77 });
      assert.equal(r.isError, undefined, textOf(r));
      assert.match(textOf(r), /sampled: /);
      assert.equal(asked.length, 1);
      assert.equal(asked[0]?.server, 'everything');
      assert.equal(asked[0]?.systemPrompt, 'You are a helpful test server.');
      assert.equal(asked[0]?.maxTokens, 77);
      assert.match(JSON.stringify(asked[0]?.messages), /the sky/);
      const sent = api.requests.at(-1)?.body as unknown as { max_tokens: number; system: string };
      assert.equal(sent.max_tokens, 77);
      assert.equal(sent.system, 'You are a helpful test server.');
      assert.ok(usage.some((u) => u.server === 'everything' && u.output > 0));

      answer = 'deny';
      const denied = await hub.callTool('everything__trigger-sampling-request', { prompt: 'again' });
      assert.match(textOf(denied), /User rejected sampling request/);
      assert.match(textOf(denied), /-1/);

      answer = 'always';
      await hub.callTool('everything__trigger-sampling-request', { prompt: 'third' });
      const before = asked.length;
      const fourth = await hub.callTool('everything__trigger-sampling-request', { prompt: 'fourth' });
      assert.match(textOf(fourth), /sampled: /);
      assert.equal(asked.length, before, 'not asked again after "always"');
    });
  });

  test('"always" lasts a token budget: requests run without asking until it is spent, then the next one asks again, saying how much was used', T, async () => {
    const asked: SamplingApproval[] = [];
    const allowed: Array<{ used: number; limit: number }> = [];
    const spentBy: number[] = [];
    const b = broker(() => 'always', asked, {
      alwaysBudget: 300,
      allowed: (_r, budget) => void allowed.push({ used: budget.used, limit: budget.limit }),
      onUsage: (_s, _m, u) => void spentBy.push(u.input_tokens + u.output_tokens),
    });
    await withHub([everything], { sampling: b.handler }, async (hub) => {
      const sample = () => hub.callTool('everything__trigger-sampling-request', { prompt: 'count to three', maxTokens: 40 });
      await sample();
      assert.equal(asked.length, 1);
      assert.equal(asked[0]?.alwaysLimit, 300);
      assert.equal(asked[0]?.spent, undefined);
      // Without asking while 40 more output tokens fit.
      while (asked.length === 1) await sample();
      assert.ok(allowed.length > 0, 'some ran without asking');
      const again = asked[1]!;
      assert.ok(again.spent, 'the request that asks again says the budget is spent');
      const usedBefore = spentBy.slice(0, -1).reduce((a, n) => a + n, 0);
      assert.deepEqual(again.spent, { server: 'everything', used: usedBefore, limit: 300 });
      assert.ok(usedBefore + 40 > 300, `${usedBefore} used: another 40 would have fitted`);
      assert.deepEqual(
        b.budgetUse(),
        [{ server: 'everything', used: spentBy.at(-1), limit: 300 }],
        '"always" again started a new budget, this request its first use',
      );
    });
  });

  test('a request for 1,000,000 tokens is taken down to the most "always" allows, saying so; it never reads as a spent budget', T, async () => {
    const asked: SamplingApproval[] = [];
    const b = broker(() => 'always', asked, { alwaysBudget: 5_000 });
    await withHub([everything], { sampling: b.handler }, async (hub) => {
      const sample = () => hub.callTool('everything__trigger-sampling-request', { prompt: 'write a novel', maxTokens: 1_000_000 });
      assert.match(textOf(await sample()), /sampled: /);
      assert.equal(asked[0]?.maxTokens, 5_000);
      assert.deepEqual(asked[0]?.asked, { maxTokens: 1_000_000, limitedBy: 'budget' });
      assert.equal((api.requests.at(-1)?.body as unknown as { max_tokens: number }).max_tokens, 5_000);
      assert.equal(asked[0]?.spent, undefined);
      await sample();
      assert.deepEqual(
        asked.filter((a) => a.spent?.used === 0),
        [],
        'no card says "spent: 0 of …"',
      );
    });
  });

  test('a server flooding sampling requests gets at most 2 at a time; the rest are refused at once', T, async () => {
    const asked: SamplingApproval[] = [];
    let refused = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    // The two questions stay open until the other 48 requests were refused: what is asserted is what the
    // broker does while two wait, whatever order the requests arrive in.
    const b = broker(async (): Promise<SamplingDecision> => {
      await gate;
      return 'once';
    }, asked);
    const handler: SamplingHandler = async (params, ctx) => {
      try {
        return await b.handler(params, ctx);
      } catch (err) {
        if (++refused === 48) release();
        throw err;
      }
    };
    await withHub([probe], { sampling: handler }, async (hub) => {
      const r = await hub.callTool('probe__flood_sampling', { count: 50 });
      const outcomes = JSON.parse(textOf(r)) as Array<{ ok: boolean; text: string }>;
      assert.equal(outcomes.filter((o) => o.ok).length, 2);
      assert.equal(asked.length, 2, 'the person was asked twice, not 50 times');
      assert.ok(outcomes.filter((o) => !o.ok).every((o) => /too many sampling requests at once/.test(o.text)));
    });
  });

  test('elicitation: a form with defaults applied, checked before it is sent; decline and cancel come through', T, async () => {
    let answer: 'accept' | 'decline' | 'cancel' = 'accept';
    const forms: string[][] = [];
    const ask: ElicitationAsk = {
      form: async (req) => {
        forms.push(req.form.fields.map((f) => `${f.name}:${f.kind}`));
        return answer === 'accept' ? { action: 'accept', content: { name: 'Ada' } } : { action: answer };
      },
    };
    await withHub([everything], { elicitation: elicitationHandler(ask) }, async (hub) => {
      const r = await hub.callTool('everything__trigger-elicitation-request', {});
      const t = textOf(r);
      assert.match(t, /Name: Ada/);
      assert.match(t, /Favorite Integer: 42/, 'the default went with the answer');
      assert.match(t, /"untitledMultipleSelectEnum": \[\s*"Guitar"\s*\]/);
      assert.deepEqual(forms[0]?.slice(-5), [
        'untitledSingleSelectEnum:select',
        'untitledMultipleSelectEnum:multiselect',
        'titledSingleSelectEnum:select',
        'titledMultipleSelectEnum:multiselect',
        'legacyTitledEnum:select',
      ]);
      answer = 'decline';
      assert.match(textOf(await hub.callTool('everything__trigger-elicitation-request', {})), /declined/);
      answer = 'cancel';
      assert.match(textOf(await hub.callTool('everything__trigger-elicitation-request', {})), /cancelled/);
    });
  });

  test('malformed elicitation schemas are refused with the reason and never shown', T, async () => {
    let shown = 0;
    const ask: ElicitationAsk = {
      form: async () => {
        shown++;
        return { action: 'accept', content: {} };
      },
      url: async () => 'decline',
    };
    const bad: unknown[] = [
      { type: 'object', properties: { nested: { type: 'object', properties: {} } } },
      { type: 'object', properties: { list: { type: 'array', items: { type: 'number' } } } },
      { type: 'object', properties: { a: { type: 'string' } }, required: ['b'] },
      { type: 'object', properties: { n: { type: 'integer', default: 'seven' } } },
      { type: 'object', properties: { pick: { type: 'string', enum: ['x'], default: 'y' } } },
      { type: 'string' },
    ];
    await withHub([probe], { elicitation: elicitationHandler(ask) }, async (hub) => {
      for (const schema of bad) {
        const raw = textOf(await hub.callTool('probe__elicit', { schema }));
        const r = JSON.parse(raw.startsWith('{') ? raw : JSON.stringify({ tool: raw })) as { error?: string; tool?: string };
        assert.equal(r.tool, undefined, `${JSON.stringify(schema)}: ${raw}`);
        assert.ok(r.error, `${JSON.stringify(schema)} was answered: ${JSON.stringify(r)}`);
      }
      assert.equal(shown, 0);
      const required = JSON.parse(
        textOf(await hub.callTool('probe__elicit', { schema: { type: 'object', properties: { must: { type: 'string' } }, required: ['must'] } })),
      ) as { error?: string };
      assert.match(required.error ?? '', /must: required/, 'an answer missing a required field is not sent');
      const js = JSON.parse(textOf(await hub.callTool('probe__elicit', { mode: 'url', url: 'javascript:alert(1)' }))) as { error?: string };
      assert.match(js.error ?? '', /only http and https/);
    });
  });

  test("logging: each server's messages and stderr reach its own sink, and 10,000 lines leave it responsive", T, async () => {
    const logs: Logged[] = [];
    await withHub([probe, everything], { logging: logging(logs, 'debug') }, async (hub) => {
      assert.ok(logs.some((l) => l.server === 'probe' && /^starting$/.test(l.text)));
      assert.equal((await logLine(logs, /^ready: probe 1\.0\.0/)).server, 'probe');
      const r = await hub.callTool('probe__log_lines', { count: 10_000 });
      assert.equal(textOf(r), 'sent 10000');
      await logLine(logs, /^\[stderr\] stderr 9999$/);
      const mine = logs.filter((l) => l.server === 'probe' && /^\[probe\] line \d+$/.test(l.text));
      assert.equal(mine.length, 10_000);
      assert.equal(mine[3]?.level, 'warn');
      assert.equal(mine[4]?.level, 'error');
      assert.equal(textOf(await hub.callTool('probe__subscribed', {})), '[]', 'still answers');
      await hub.callTool('everything__toggle-simulated-logging', {});
      const hit = await logLine(logs, /-level message/);
      assert.equal(hit.server, 'everything');
    });
  });

  test('logging/setLevel follows the level the caller sets', T, async () => {
    const logs: Logged[] = [];
    await withHub([probe], { logging: logging(logs, 'error') }, async (hub) => {
      await hub.callTool('probe__log_lines', { count: 10 });
      await logLine(logs, /stderr 9$/);
      const lines = logs.filter((l) => /^\[probe\] line/.test(l.text));
      assert.deepEqual(
        lines.map((l) => l.text),
        ['[probe] line 4', '[probe] line 9'],
      );
      await hub.setLogLevel('debug');
      logs.length = 0;
      await hub.callTool('probe__log_lines', { count: 5 });
      await logLine(logs, /stderr 4$/);
      assert.equal(logs.filter((l) => /^\[probe\] line/.test(l.text)).length, 5);
    });
  });

  test("a crash and its restart are logged in the server's sink", T, async () => {
    const logs: Logged[] = [];
    const crashing = fakeConfig('crashy', 'mcp-echo');
    await withHub([crashing], { logging: logging(logs) }, async (hub) => {
      void hub.callTool('crashy__crash', {});
      await logLine(logs, /^crashed: /);
      await waitForStatus(hub, 'crashy', (s) => s.state === 'ready' && (s.restarts ?? 0) > 0);
      await logLine(logs, /^starting again \(restart 1[;)]/);
    });
  });

  test('subscriptions: updates become hub events, 100 a second included, and stop after unsubscribing', T, async () => {
    await withHub([probe, everything], {}, async (hub) => {
      const seen: string[] = [];
      hub.on('resourceUpdated', (server, uri) => void seen.push(`${server} ${uri}`));
      await hub.subscribeResource('probe', 'probe://counter');
      assert.equal(textOf(await hub.callTool('probe__subscribed', {})), '["probe://counter"]');
      assert.equal(textOf(await hub.callTool('probe__pulse', { uri: 'probe://counter', count: 100, everyMs: 10 })), 'sent 100');
      await new Promise<void>((resolve) => {
        const check = (): void => (seen.length >= 100 ? resolve() : void setImmediate(check));
        check();
      });
      assert.equal(seen.filter((s) => s === 'probe probe://counter').length, 100);
      await hub.unsubscribeResource('probe', 'probe://counter');
      assert.equal(textOf(await hub.callTool('probe__pulse', { uri: 'probe://counter', count: 5, everyMs: 0 })), 'sent 0');

      const uri = hub.status('everything')?.resources[0]?.uri as string;
      await hub.subscribeResource('everything', uri);
      const updated = new Promise<void>((resolve) => hub.on('resourceUpdated', (s, u) => void (s === 'everything' && u === uri && resolve())));
      await hub.callTool('everything__toggle-subscriber-updates', {});
      await updated;
    });
  });

  test("completions: the server's suggestions, with earlier arguments as context", T, async () => {
    await withHub([everything], {}, async (hub) => {
      const ref = { type: 'ref/prompt' as const, name: 'completable-prompt' };
      const dept = await hub.complete('everything', { ref, argument: { name: 'department', value: 'E' } });
      assert.deepEqual(dept.completion.values, ['Engineering']);
      const who = await hub.complete('everything', { ref, argument: { name: 'name', value: '' }, context: { arguments: { department: 'Sales' } } });
      assert.deepEqual(who.completion.values, ['David', 'Eve', 'Frank']);
    });
  });
});
