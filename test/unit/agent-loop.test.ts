import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { Agent } from '../../src/core/agent/agent';
import { repairHistory } from '../../src/core/agent/history-repair';
import { approvalKey } from '../../src/core/tool-call/approval-policy';
import type { AgentOutput, ApprovalRequest, AskApproval, ToolHost } from '../../src/core/agent/types';
import type { CallOptions, CallToolResult } from '../../src/core/mcp/types';
import { host, memoryStore } from '../fakes/tool-host';
import type { ChatEvent } from '../../src/common/protocol';
import { FakeAnthropicApi, isToolResultTurn, systemText, unmarked } from '../fakes/anthropic-api';

const text = (s: string): CallToolResult => ({ content: [{ type: 'text', text: s }] });

describe('agent loop against the fake Messages API', () => {
  const api = new FakeAnthropicApi();
  let client: Anthropic;
  before(async () => {
    const url = await api.start();
    client = new Anthropic({ apiKey: 'sk-test', baseURL: url, maxRetries: 2 });
  });
  after(() => api.stop());

  function agent(h: ToolHost, extra: Partial<ConstructorParameters<typeof Agent>[0]> = {}): Agent {
    return new Agent({
      client,
      host: h,
      model: 'claude-test',
      workspaceName: 'ws',
      approvals: memoryStore(),
      askApproval: async () => 'once',
      ...extra,
    });
  }

  async function run(a: Agent, prompt: string, signal = new AbortController().signal) {
    const out: AgentOutput[] = [];
    const status = await a.runTurn({ text: prompt }, (o) => out.push(o), signal);
    const events = out.filter((o): o is { type: 'event'; event: ChatEvent } => o.type === 'event').map((o) => o.event);
    return { status, out, events };
  }

  test('streams text as deltas, then the final text, and ends the turn', async () => {
    api.setScript([{ text: 'Hello **world**, this streams in pieces.', chunk: 5 }]);
    const { status, out, events } = await run(agent(host({})), 'hi');
    assert.equal(status, 'done');
    const deltas = out.filter((o) => o.type === 'delta');
    assert.ok(deltas.length > 3, 'several deltas');
    assert.equal(deltas.map((d) => (d.type === 'delta' ? d.text : '')).join(''), 'Hello **world**, this streams in pieces.');
    const final = events.find((e) => e.kind === 'assistant_text');
    assert.equal(final?.kind === 'assistant_text' && final.text, 'Hello **world**, this streams in pieces.');
    assert.equal(events.at(-1)?.kind, 'turn_end');
  });

  test('the system prompt names the tools discovered, grouped by server', async () => {
    const h = host({ workspace__read_file: { readOnly: true, run: async () => text('x') } });
    api.setScript([{ text: 'ok' }]);
    await run(agent(h), 'hi');
    const body = api.requests.at(-1)!.body;
    assert.match(systemText(body), /\nworkspace:\n- workspace__read_file: read_file tool/);
    assert.deepEqual(
      body.tools?.map((t) => t.name),
      ['workspace__read_file'],
    );
  });

  test("the servers' initialize instructions reach the system prompt", async () => {
    const h = host({ workspace__read_file: { readOnly: true, run: async () => text('x') } });
    const withStatuses = {
      ...h,
      statuses: () => [
        {
          name: 'workspace',
          state: 'ready' as const,
          instructions: 'Paths are relative to the workspace.',
          tools: [],
          resources: [],
          resourceTemplates: [],
          prompts: [],
        },
        { name: 'gone', state: 'error' as const, instructions: 'never shown', tools: [], resources: [], resourceTemplates: [], prompts: [] },
      ],
    };
    api.setScript([{ text: 'ok' }]);
    await run(agent(withStatuses), 'hi');
    const system = systemText(api.requests.at(-1)!.body);
    assert.match(system, /Instructions from the workspace server:\nPaths are relative to the workspace\./);
    assert.doesNotMatch(system, /never shown/);
  });

  test('a read-only tool runs at once and its result goes back to the model', async () => {
    let asked = 0;
    const h = host({ workspace__read_file: { readOnly: true, run: async (a) => text(`contents of ${String(a.path)}`) } });
    api.setScript([{ toolUses: [{ name: 'workspace__read_file', input: { path: 'a.txt' } }] }, { text: 'The file says hi.' }]);
    const { status, events } = await run(agent(h, { askApproval: async () => (asked++, 'deny') }), 'read a.txt');
    assert.equal(status, 'done');
    assert.equal(asked, 0);
    const result = events.find((e) => e.kind === 'tool_result');
    assert.ok(result && result.kind === 'tool_result' && !result.isError);
    const second = api.requests.at(-1)!.body;
    assert.ok(isToolResultTurn(second));
    assert.match(JSON.stringify(second.messages.at(-1)), /contents of a\.txt/);
  });

  test('a tool error goes back as is_error so the model can recover', async () => {
    const h = host({
      workspace__read_file: {
        readOnly: true,
        run: async (a) => (a.path === 'missing.txt' ? { ...text('File not found: missing.txt'), isError: true } : text('found')),
      },
    });
    api.setScript([
      { toolUses: [{ name: 'workspace__read_file', input: { path: 'missing.txt' } }] },
      { toolUses: [{ name: 'workspace__read_file', input: { path: 'other.txt' } }] },
      { text: 'Recovered.' },
    ]);
    const { status } = await run(agent(h), 'go');
    assert.equal(status, 'done');
    const afterError = api.requests.at(-2)!.body.messages.at(-1)!;
    assert.match(JSON.stringify(afterError), /"is_error":true/);
    assert.match(JSON.stringify(afterError), /File not found/);
  });

  test('write tools ask; deny is reported to the model; always is remembered', async () => {
    const store = memoryStore();
    const decisions: Array<'deny' | 'always'> = ['deny', 'always'];
    const asked: string[] = [];
    const ask: AskApproval = async (req) => {
      asked.push(`${req.tool.tool.name}:${req.reason}:${req.preview}`);
      return decisions.shift() ?? 'deny';
    };
    const h = host({ workspace__write_file: { run: async () => text('created a.txt') } });
    const write = { name: 'workspace__write_file', input: { path: 'a.txt', content: 'hello' } };
    api.setScript([{ toolUses: [write] }, { text: 'denied' }, { toolUses: [write] }, { text: 'written' }, { toolUses: [write] }, { text: 'again' }]);
    const a = agent(h, { approvals: store, askApproval: ask });
    await run(a, 'write');
    assert.equal(h.calls.length, 0, 'denied call did not run');
    assert.match(JSON.stringify(api.requests.at(-1)!.body.messages.at(-1)), /denied this tool call/);
    await run(a, 'write again');
    assert.equal(h.calls.length, 1);
    await run(a, 'and again');
    assert.equal(h.calls.length, 2);
    assert.equal(asked.length, 2, 'the third call was auto-approved');
    assert.match(asked[0]!, /write_file:Write a\.txt in the workspace:hello/);
  });

  test('writes to sensitive paths ask even when always-approved', async () => {
    const store = memoryStore();
    let asked = 0;
    const h = host({ workspace__write_file: { run: async () => text('ok') } });
    api.setScript([
      { toolUses: [{ name: 'workspace__write_file', input: { path: 'x.txt', content: '1' } }] },
      { toolUses: [{ name: 'workspace__write_file', input: { path: '.vscode/settings.json', content: '{}' } }] },
      { text: 'done' },
    ]);
    await run(agent(h, { approvals: store, askApproval: async () => (asked++, 'always') }), 'go');
    assert.equal(asked, 2);
  });

  test('reading a sensitive file with a read-only tool does not ask: only what can change it does', async () => {
    let asked = 0;
    const h = host({ workspace__read_file: { readOnly: true, run: async () => text('ref: refs/heads/main') } });
    api.setScript([
      { toolUses: [{ name: 'workspace__read_file', input: { path: '.git/HEAD' } }] },
      { toolUses: [{ name: 'workspace__read_file', input: { path: '.vscode/settings.json' } }] },
      { text: 'done' },
    ]);
    await run(agent(h, { askApproval: async () => (asked++, 'deny') }), 'go');
    assert.equal(asked, 0);
  });

  test('a sensitive write offers no "always", and answering always does not remember it', async () => {
    const store = memoryStore();
    const asked: ApprovalRequest[] = [];
    const h = host({ workspace__write_file: { run: async () => text('ok') } });
    api.setScript([
      { toolUses: [{ name: 'workspace__write_file', input: { path: '.git/modules/sub/config', content: '[core]' } }] },
      { toolUses: [{ name: 'workspace__write_file', input: { path: 'x.txt', content: '1' } }] },
      { text: 'done' },
    ]);
    await run(agent(h, { approvals: store, askApproval: async (r) => (asked.push(r), 'always') }), 'go');
    assert.equal(asked.length, 2, 'the ordinary write still asked: the sensitive "always" was not remembered as one for write_file');
    assert.equal(asked[0]!.alwaysKind, 'none');
    assert.match(asked[0]!.warnings.join(' '), /\.git\/modules\/sub\/config: Git runs hooks and reads config from its own folder.* always needs your approval/);
    assert.equal(asked[1]!.alwaysKind, 'tool');
    assert.deepEqual(asked[1]!.warnings, []);
  });

  test('paths under other argument names and as file URIs are checked too', async () => {
    const store = memoryStore();
    const h = host({ fs__move_file: { run: async () => text('ok') }, fs__write: { run: async () => text('ok') } });
    const inputs: Array<[string, Record<string, unknown>]> = [
      ['fs__move_file', { source: 'notes.txt', destination: '.git/hooks/pre-commit' }],
      ['fs__write', { file_path: 'sub/.git', content: 'gitdir: ../evil' }],
      ['fs__write', { paths: ['a.txt', '.vscode/tasks.json'], content: '{}' }],
      ['fs__write', { uri: 'file:///ws/%2Egit/commondir', content: '../evil' }],
    ];
    for (const [name] of inputs) store.add(approvalKey(h.tools().find((t) => t.qualifiedName === name)!));
    const asked: ApprovalRequest[] = [];
    api.setScript([...inputs.map(([name, input]) => ({ toolUses: [{ name, input }] })), { text: 'done' }]);
    await run(agent(h, { approvals: store, askApproval: async (r) => (asked.push(r), 'deny') }), 'go');
    assert.equal(asked.length, inputs.length);
    assert.ok(asked.every((r) => r.alwaysKind === 'none'));
    assert.equal(h.calls.length, 0);
  });

  describe('run_code: its own "always", and what the card says about the sandbox', () => {
    const sandboxMeta = (claim: unknown) => ({ 'mcpAgent/sandbox': claim });
    async function ask(meta?: Record<string, unknown>): Promise<ApprovalRequest> {
      const asked: ApprovalRequest[] = [];
      const h = host({ workspace__run_code: { meta, run: async () => text('ran') } });
      api.setScript([{ toolUses: [{ name: 'workspace__run_code', input: { code: 'print(1)' } }] }, { text: 'done' }]);
      await run(agent(h, { askApproval: async (r) => (asked.push(r), 'deny') }), 'go');
      assert.equal(asked.length, 1);
      return asked[0]!;
    }

    test("no OS sandbox: a clear warning with the server's sentence", async () => {
      const r = await ask(sandboxMeta({ available: false, kind: 'none', network: true, detail: 'bwrap is not installed.' }));
      assert.equal(r.alwaysKind, 'code');
      assert.equal(r.warnings[0], 'No OS sandbox: this code runs with your access to your files and network. bwrap is not installed.');
      assert.match(r.warnings[1]!, /can change any file in this workspace, including \.vscode and \.git/);
      assert.deepEqual(r.notes, []);
      assert.equal(r.preview, 'print(1)');
    });

    test('the bundled server\'s own "No OS sandbox: …" sentence is shown once, not after a second opening', async () => {
      const detail = "No OS sandbox: bubblewrap (bwrap) is not installed; the code runs with your user's access to files and network.";
      const r = await ask(sandboxMeta({ available: false, kind: 'none', network: true, detail }));
      assert.equal(r.warnings[0], detail);
    });

    test('sandboxed: a short line, and the warning that code can still change any file here', async () => {
      const r = await ask(sandboxMeta({ available: true, kind: 'bubblewrap', network: false, detail: 'Only the workspace is writable.' }));
      assert.deepEqual(r.notes, ['Sandboxed (bubblewrap), network off. Only the workspace is writable.']);
      assert.equal(r.warnings.length, 1);
      assert.match(r.warnings[0]!, /including \.vscode and \.git/);
      const seatbelt = await ask(sandboxMeta({ available: true, kind: 'seatbelt', network: true, detail: '' }));
      assert.deepEqual(seatbelt.notes, ['Sandboxed (seatbelt), network on.']);
    });

    test('an older server (no _meta) or a claim that does not parse: the status is unknown', async () => {
      for (const meta of [undefined, {}, sandboxMeta('yes'), sandboxMeta({ available: 'true' }), sandboxMeta({ available: true, kind: '<b>' })]) {
        const r = await ask(meta);
        assert.match(r.warnings[0]!, /^Sandbox status unknown: the workspace server does not say whether code runs in an OS sandbox/, JSON.stringify(meta));
        assert.deepEqual(r.notes, []);
      }
    });

    test("control characters and length in the server's sentence are tamed", async () => {
      const r = await ask(sandboxMeta({ available: false, detail: `evil\u001b[2J\u202Eline\n${'x'.repeat(1000)}` }));
      assert.doesNotMatch(r.warnings[0]!, /[\u001b\u202E\n]/);
      assert.ok(r.warnings[0]!.length < 420);
    });

    test('"always" for code is remembered, and asks again once the sandbox is gone', async () => {
      const store = memoryStore();
      let claim: Record<string, unknown> = { available: true, kind: 'bubblewrap', network: false, detail: 'x' };
      const asked: ApprovalRequest[] = [];
      const tool = { meta: sandboxMeta(claim), run: async () => text('ran') };
      const h = host({ workspace__run_code: tool });
      const call = { toolUses: [{ name: 'workspace__run_code', input: { code: 'print(1)' } }] };
      api.setScript([call, { text: '1' }, call, { text: '2' }]);
      const a = agent(h, { approvals: store, askApproval: async (r) => (asked.push(r), 'always') });
      await run(a, 'one');
      await run(a, 'two');
      assert.equal(asked.length, 1, 'the second run did not ask');
      assert.equal(h.calls.length, 2);
      // The server now says the sandbox is unavailable (bwrap removed): the old "always" no longer applies.
      claim = { available: false, kind: 'none', network: true, detail: 'bwrap is not installed.' };
      (h.tools()[0]!.tool as { _meta?: unknown })._meta = sandboxMeta(claim);
      api.setScript([call, { text: '3' }]);
      await run(a, 'three');
      assert.equal(asked.length, 2);
      assert.match(asked[1]!.warnings[0]!, /^No OS sandbox/);
    });
  });

  test('independent tool calls of one reply run concurrently', async () => {
    const log: string[] = [];
    const slow = (name: string) => async () => {
      log.push(`start ${name}`);
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      log.push(`end ${name}`);
      return text(name);
    };
    const h = host({ s__a: { readOnly: true, run: slow('a') }, s__b: { readOnly: true, run: slow('b') } });
    api.setScript([
      {
        toolUses: [
          { name: 's__a', input: {} },
          { name: 's__b', input: {} },
        ],
      },
      { text: 'both' },
    ]);
    await run(agent(h), 'go');
    assert.deepEqual(log.slice(0, 2), ['start a', 'start b'], 'both started before either ended');
    const results = api.requests.at(-1)!.body.messages.at(-1)!.content as Array<{ tool_use_id: string; content: unknown }>;
    assert.match(JSON.stringify(results[0]), /"a"/);
  });

  test('tool progress is reported as it happens', async () => {
    const h = host({
      s__slow: {
        readOnly: true,
        run: async (_a, _s, options) => {
          options?.onProgress?.(1, 4, 'step 1');
          options?.onProgress?.(4, 4, 'step 4');
          return text('done');
        },
      },
    });
    api.setScript([{ toolUses: [{ name: 's__slow', input: {} }] }, { text: 'ok' }]);
    const { out } = await run(agent(h), 'go');
    const progress = out.filter((o) => o.type === 'progress');
    assert.deepEqual(
      progress.map((p) => p.type === 'progress' && p.message),
      ['step 1', 'step 4'],
    );
  });

  test('the tool timeout bounds the whole call, progress or not', async () => {
    let seen: CallOptions | undefined;
    const h = host({ s__slow: { readOnly: true, run: async (_a, _s, options) => ((seen = options), text('ok')) } });
    api.setScript([{ toolUses: [{ name: 's__slow', input: {} }] }, { text: 'ok' }]);
    await run(agent(h, { toolTimeoutMs: 7000 }), 'go');
    assert.equal(seen?.timeoutMs, 7000);
    assert.equal(seen?.maxTotalTimeoutMs, 7000, 'progress notifications cannot extend the call past the setting');
  });

  test('a call whose input is not valid JSON is answered with an error, not run, and the turn goes on', async () => {
    const ran: unknown[] = [];
    const h = host({ s__read: { readOnly: true, run: async (a) => (ran.push(a), text(`read ${String(a.path)}`)) } });
    api.setScript([
      {
        text: 'Let me look.',
        toolUses: [
          { name: 's__read', rawInput: '{"path": "a.txt",}' },
          { name: 's__read', rawInput: '["b.txt"]' },
          { name: 's__read', input: { path: 'c.txt' } },
        ],
      },
      { text: 'Recovered.' },
    ]);
    const { status, events } = await run(agent(h), 'read them');
    assert.equal(status, 'done', JSON.stringify(events.at(-1)));
    assert.deepEqual(ran, [{ path: 'c.txt' }], 'only the valid call ran');
    const body = api.requests.at(-1)!.body;
    const results = body.messages.at(-1)!.content as Array<{ is_error?: boolean; content: unknown }>;
    assert.equal(results.length, 3, 'every call of the reply is answered');
    assert.equal(results[0]!.is_error, true);
    assert.match(String(results[0]!.content), /Your input for s__read was not valid JSON \(.*it began: \{"path": "a\.txt",\}\).*Send the call again/);
    assert.match(String(results[1]!.content), /not valid JSON \(it is an array, not an object/);
    assert.match(JSON.stringify(results[2]), /read c\.txt/);
    assert.match(JSON.stringify(body.messages.at(-2)), /Let me look\./, 'the text of the reply was kept');
  });

  test('a call cut off by max_tokens is not run; the model is told to send smaller input', async () => {
    const ran: string[] = [];
    const h = host({
      s__note: { readOnly: true, run: async () => (ran.push('note'), text('noted')) },
      s__write: { run: async () => (ran.push('write'), text('written')) },
    });
    api.setScript([
      {
        toolUses: [
          { name: 's__note', input: { text: 'first' } },
          { name: 's__write', rawInput: `{"path": "big.txt", "content": "${'a'.repeat(200)}` },
        ],
        stopReason: 'max_tokens',
      },
      { text: 'I will write it in parts.' },
    ]);
    const { status } = await run(agent(h, { maxTokens: 1024 }), 'write a big file');
    assert.equal(status, 'done');
    assert.deepEqual(ran, ['note'], 'the complete call ran, the cut one did not');
    const results = api.requests.at(-1)!.body.messages.at(-1)!.content as Array<{ is_error?: boolean; content: unknown }>;
    assert.equal(results[1]!.is_error, true);
    assert.match(
      String(results[1]!.content),
      /hit the max_tokens limit \(1024 tokens per reply, the mcpAgent\.maxTokens setting\) while writing the input for s__write.*not run.*write a big file in parts/,
    );
  });

  test('an unknown tool name gets a clear is_error result', async () => {
    api.setScript([{ toolUses: [{ name: 'nope__tool', input: {} }] }, { text: 'ok' }]);
    await run(agent(host({})), 'go');
    assert.match(JSON.stringify(api.requests.at(-1)!.body.messages.at(-1)), /There is no tool named nope__tool/);
  });

  test("a denied call's duration is not the time the person took to decide", async () => {
    const h = host({ s__write: { run: async () => text('never runs') } });
    api.setScript([{ toolUses: [{ name: 's__write', input: {} }] }, { text: 'ok' }]);
    const thinkMs = 400;
    const a = agent(h, { askApproval: () => new Promise((resolve) => setTimeout(() => resolve('deny'), thinkMs)) });
    const { events } = await run(a, 'write');
    const result = events.find((e) => e.kind === 'tool_result');
    assert.ok(result?.kind === 'tool_result' && result.isError);
    assert.ok(result.durationMs < thinkMs / 2, `a denial shows ${result.durationMs} ms after ${thinkMs} ms of thinking`);
    assert.deepEqual(h.calls, []);
  });

  test('the iteration cap stops a runaway loop', async () => {
    const h = host({ s__t: { readOnly: true, run: async () => text('again') } });
    api.setScript(() => ({ toolUses: [{ name: 's__t', input: {} }] }));
    const before = api.requests.length;
    const { status, events } = await run(agent(h, { maxIterations: 3 }), 'loop');
    assert.equal(status, 'max_iterations');
    assert.equal(api.requests.length - before, 3);
    const end = events.at(-1);
    assert.ok(end?.kind === 'turn_end' && /continue/.test(end.error ?? ''));
    assert.equal(end.action, 'continue');
  });

  test('Stop cancels a model request that hangs', async () => {
    api.setScript([{ hang: true }]);
    const controller = new AbortController();
    const a = agent(host({}));
    const before = api.requests.length;
    const pending = run(a, 'hang', controller.signal);
    await api.waitForRequests(before + 1);
    controller.abort();
    const { status } = await pending;
    assert.equal(status, 'stopped');
  });

  test('Stop cancels a running tool call through its signal', async () => {
    let sawAbort = false;
    const h = host({
      s__wait: {
        readOnly: true,
        run: (_args, signal) =>
          new Promise((resolve) => {
            signal?.addEventListener('abort', () => {
              sawAbort = true;
              resolve({ ...text('cancelled'), isError: true });
            });
            controller.abort();
          }),
      },
    });
    const controller = new AbortController();
    api.setScript([{ toolUses: [{ name: 's__wait', input: {} }] }, { text: 'never' }]);
    const a = agent(h);
    const { status } = await run(a, 'go', controller.signal);
    assert.equal(status, 'stopped');
    assert.ok(sawAbort);
    const last = a.messages.at(-1)!;
    assert.equal(last.role, 'user', 'the tool_use got its result so the history stays valid');
  });

  test('401 gives a message that says how to fix the key', async () => {
    api.setScript([{ error: 401, message: 'invalid x-api-key' }]);
    const { status, events } = await run(agent(host({}), { keyHint: "Run 'MCP Agent: Set API Key'." }), 'hi');
    assert.equal(status, 'error');
    const end = events.at(-1);
    assert.ok(end?.kind === 'turn_end');
    assert.match(end.error ?? '', /rejected the API key \(401\).*Set API Key/);
    assert.equal(end.action, 'setKey');
  });

  test('429 with retry-after, 529 and a dropped connection are retried', async () => {
    api.setScript([{ error: 429, retryAfterMs: 5 }, { error: 529, retryAfterMs: 5 }, { text: 'after retries' }]);
    const before = api.requests.length;
    const { status } = await run(agent(host({})), 'hi');
    assert.equal(status, 'done');
    assert.equal(api.requests.length - before, 3);
    api.setScript([{ drop: true }, { text: 'after drop' }]);
    const dropped = await run(agent(host({})), 'hi');
    assert.equal(dropped.status, 'done');
  });

  test('429 past the retries ends the turn with a clear message, and the next message still works', async () => {
    api.setScript([{ error: 429, retryAfterMs: 1 }, { error: 429, retryAfterMs: 1 }, { error: 429, retryAfterMs: 1 }, { text: 'ok now' }]);
    const a = agent(host({}));
    const first = await run(a, 'one');
    const end = first.events.at(-1);
    assert.ok(end?.kind === 'turn_end' && /Rate limited/.test(end.error ?? ''));
    assert.ok(end?.kind === 'turn_end' && end.action === 'retry' && end.retryAfterS === 1, JSON.stringify(end));
    const second = await run(a, 'two');
    assert.equal(second.status, 'done');
    // Never merged: the failed message is closed by a line the model sees, and the new one is a turn of its own.
    const sent = unmarked(api.requests.at(-1)!.body.messages);
    assert.deepEqual(
      sent.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.match(JSON.stringify(sent[1]), /No reply to the message above: its turn was stopped by the person or its request failed/);
    assert.match(JSON.stringify(sent[0]), /"one"/);
    assert.doesNotMatch(JSON.stringify(sent[2]), /"one"/);
  });

  test('Retry asks again for the same conversation, adding nothing; with nothing failed it says so', async () => {
    api.setScript([{ error: 529, retryAfterMs: 1 }, { error: 529, retryAfterMs: 1 }, { error: 529, retryAfterMs: 1 }, { text: 'back' }]);
    const a = agent(host({}));
    const first = await run(a, 'are you there?');
    assert.equal(first.status, 'error');
    const end = first.events.at(-1);
    assert.ok(end?.kind === 'turn_end' && end.action === 'retry' && /overloaded \(529\)/.test(end.error ?? ''));
    const out: AgentOutput[] = [];
    const status = await a.runTurn({ retry: true }, (o) => out.push(o), new AbortController().signal);
    assert.equal(status, 'done');
    assert.deepEqual(unmarked(api.requests.at(-1)!.body.messages), [{ role: 'user', content: [{ type: 'text', text: 'are you there?' }] }]);
    assert.deepEqual(
      a.messages.map((m) => m.role),
      ['user', 'assistant'],
    );
    const again = await a.runTurn({ retry: true }, () => undefined, new AbortController().signal);
    assert.equal(again, 'error', 'the last request did not fail: nothing to retry');
  });

  test('a 400 offers no action; a dropped connection past the retries offers Retry', async () => {
    api.setScript([{ error: 400, message: 'bad' }]);
    const bad = await run(agent(host({})), 'x');
    const end = bad.events.at(-1);
    assert.ok(end?.kind === 'turn_end' && end.action === undefined);
    api.setScript([{ drop: true }, { drop: true }, { drop: true }]);
    const dropped = await run(agent(host({})), 'y');
    const end2 = dropped.events.at(-1);
    assert.ok(end2?.kind === 'turn_end' && end2.action === 'retry', JSON.stringify(end2));
  });
});

describe('repairHistory', () => {
  test('answers a dangling tool_use; two messages of the person in a row stay two turns, the first closed', () => {
    const fixed = repairHistory([
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'x__y', input: {} }] },
      { role: 'assistant', content: [{ type: 'text', text: 'paused, then went on' }] },
    ]);
    assert.deepEqual(
      fixed.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant', 'user'],
    );
    assert.match(JSON.stringify(fixed[1]), /No reply to the message above/);
    assert.equal((fixed[3]!.content as unknown[]).length, 2, "one turn's replies are joined");
    assert.match(JSON.stringify(fixed[4]), /Interrupted/);
  });
});
