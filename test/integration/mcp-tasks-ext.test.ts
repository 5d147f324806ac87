// Tool calls through the Tasks extension (MCP 2026-07-28, io.modelcontextprotocol/tasks) through the hub, against
// a real server process that follows the extension's spec (test/fakes/mcp-tasks-ext.ts): a task that reports its
// status and completes, one answered at once, one stopped by the person, one asking the person, one the server
// never finishes, one that fails, one whose server exits, and the same tools on a server without the extension.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClientHandlers } from '../../src/core/mcp/client/client-handlers';
import { elicitationHandler } from '../../src/core/mcp/client/elicitation-handler';
import { FAILURE_META_KEY, type McpHub } from '../../src/core/mcp/hub/hub';
import type { ServerConfig } from '../../src/core/mcp/types';
import { fakeConfig, textOf, withHub } from './mcp-support';
import { startHttpServerProcess } from './helpers/http-server-process';
import { join } from 'node:path';
import { repoRoot } from '../support/repo-root';
import { scaled } from '../support/until';

const T = { timeout: scaled(60_000) };
const server = fakeConfig('ext', 'mcp-tasks-ext');

function hubWith(configs: ServerConfig[], body: (hub: McpHub) => Promise<void>, callTimeoutMs?: number, handlers?: ClientHandlers): Promise<void> {
  return withHub(configs, { connection: { closeGraceMs: 200, callTimeoutMs, handlers }, changeDebounceMs: 5 }, async (hub) => {
    await hub.settled();
    await body(hub);
  });
}

interface WireLog {
  wire: string[];
  tasks: Array<{ tool: string; status: string; polls: number }>;
  undeclared: number;
}

async function wireLog(hub: McpHub): Promise<WireLog> {
  return JSON.parse(textOf(await hub.callTool('ext__wire_log'))) as WireLog;
}

describe('tools that run as tasks through the Tasks extension (2026-07-28)', () => {
  test('a task-backed call completes with its result; its status messages reach the caller', T, async () => {
    await hubWith([server], async (hub) => {
      const status = hub.statuses().find((s) => s.name === 'ext');
      assert.equal(status?.era, 'modern');
      assert.equal(status?.tasks, true, 'the extension counts as tasks');
      assert.ok(
        hub.tools().some((t) => t.qualifiedName === 'ext__needs_tasks'),
        'a task-only tool is offered where the host can run it',
      );
      const messages: string[] = [];
      const result = await hub.callTool('ext__report', {}, { onProgress: (_p, _t, m) => void (m && messages.push(m)) });
      assert.equal(result.isError, undefined, textOf(result));
      assert.equal(textOf(result), 'reported 3 steps');
      // What the polls saw, in the server's order (a poll may skip a step, not reorder them).
      const steps = messages.filter((m) => m.startsWith('step '));
      assert.ok(steps.length > 0, messages.join(' | '));
      assert.deepEqual(steps, [...steps].sort(), messages.join(' | '));
      const log = await wireLog(hub);
      assert.deepEqual(
        log.tasks.map((t) => [t.tool, t.status]),
        [['report', 'completed']],
      );
      assert.ok(log.tasks[0]!.polls >= 1);
      assert.equal(log.undeclared, 0, 'every task request declared the extension');
      assert.equal(textOf(await hub.callTool('ext__needs_tasks')), 'ran as a task');
    });
  });

  test('a call the server answers at once is a plain result, with its progress', T, async () => {
    await hubWith([server], async (hub) => {
      const seen: Array<[number, number | undefined, string | undefined]> = [];
      const result = await hub.callTool('ext__plain', {}, { onProgress: (p, t, m) => void seen.push([p, t, m]) });
      assert.equal(textOf(result), 'plain done');
      assert.deepEqual(seen, [[1, 2, 'half way']]);
    });
  });

  test('Stop cancels the task with tasks/cancel (never notifications/cancelled) and ends the call', T, async () => {
    await hubWith([server], async (hub) => {
      const stop = new AbortController();
      const result = await hub.callTool(
        'ext__waits',
        {},
        {
          signal: stop.signal,
          onProgress: (_p, _t, message) => {
            if (message?.startsWith('waiting')) stop.abort(new Error('the person pressed Stop'));
          },
        },
      );
      assert.equal(result.isError, true);
      assert.equal(result._meta?.[FAILURE_META_KEY], 'cancelled');
      assert.match(textOf(result), /cancelled: the person pressed Stop/);
      const log = await wireLog(hub);
      assert.deepEqual(
        log.tasks.map((t) => [t.tool, t.status]),
        [['waits', 'cancelled']],
      );
      assert.ok(log.wire.includes('tasks/cancel waits'), log.wire.join('\n'));
      assert.ok(!log.wire.some((w) => w.startsWith('notifications/cancelled')), log.wire.join('\n'));
      // The session goes on.
      assert.equal(textOf(await hub.callTool('ext__report')), 'reported 3 steps');
    });
  });

  test('a task that needs input asks the person through the elicitation handler and finishes with the answer', T, async () => {
    const asked: string[] = [];
    const handlers: ClientHandlers = {
      elicitation: elicitationHandler({
        form: async (req) => {
          asked.push(req.message);
          return { action: 'accept', content: { colour: 'teal' } };
        },
      }),
    };
    await hubWith(
      [server],
      async (hub) => {
        const result = await hub.callTool('ext__ask');
        assert.equal(result.isError, undefined, textOf(result));
        assert.equal(textOf(result), 'you chose teal');
        assert.deepEqual(asked, ['Which colour?'], 'asked once, however often the server was polled meanwhile');
        const log = await wireLog(hub);
        assert.equal(log.wire.filter((w) => w === 'tasks/update ask').length, 1, log.wire.join('\n'));
      },
      undefined,
      handlers,
    );
  });

  test("a task's sampling request goes to the sampling handler and its answer back with tasks/update", T, async () => {
    const questions: string[] = [];
    const handlers: ClientHandlers = {
      sampling: async (params, ctx) => {
        questions.push(`${ctx.server}: ${JSON.stringify(params.messages[0]?.content)}`);
        return { model: 'fake', role: 'assistant', content: { type: 'text', text: '42' } };
      },
    };
    await hubWith(
      [server],
      async (hub) => {
        const result = await hub.callTool('ext__sample');
        assert.equal(textOf(result), 'the model said 42');
        assert.equal(questions.length, 1);
        assert.match(questions[0]!, /^ext: .*What is six times seven\?/);
      },
      undefined,
      handlers,
    );
  });

  test('a task the server never finishes ends with the time limit and is cancelled', T, async () => {
    await hubWith(
      [server],
      async (hub) => {
        const result = await hub.callTool('ext__never');
        assert.equal(result.isError, true);
        assert.equal(result._meta?.[FAILURE_META_KEY], 'timeout');
        assert.match(textOf(result), /tool "never" on server ext \(run as a task\) showed no progress for 1\.5 s; it was cancelled/);
        const log = await wireLog(hub);
        assert.deepEqual(
          log.tasks.map((t) => [t.tool, t.status]),
          [['never', 'cancelled']],
        );
        assert.ok(!log.wire.some((w) => w.startsWith('notifications/cancelled')), log.wire.join('\n'));
      },
      1_500,
    );
  });

  test("a failed task is an error with the server's reason", T, async () => {
    await hubWith([server], async (hub) => {
      const result = await hub.callTool('ext__fails');
      assert.equal(result.isError, true);
      assert.match(textOf(result), /tool "fails" on server ext failed as a task: the disk is full \(error -32603\)/);
    });
  });

  test('a server that goes away while its task runs fails the call at once, saying so', T, async () => {
    // A long limit: the call must end with the exit, not with a timeout.
    await hubWith(
      [server],
      async (hub) => {
        const result = await hub.callTool('ext__dies');
        assert.equal(result.isError, true);
        assert.equal(result._meta?.[FAILURE_META_KEY], 'exited', textOf(result));
        assert.match(textOf(result), /server ext exited \(code 3\)/);
      },
      60_000,
    );
  });

  test('on a 2026-07-28 server without the extension, a call the server would run as a task says why it cannot run', T, async () => {
    await hubWith([fakeConfig('ext', 'mcp-tasks-ext', '--no-ext')], async (hub) => {
      assert.equal(hub.statuses().find((s) => s.name === 'ext')?.tasks, false);
      // The era has no per-tool taskSupport (the SDK drops the 2025-11-25 `execution` field): nothing tells beforehand.
      assert.ok(hub.tools().some((t) => t.qualifiedName === 'ext__needs_tasks'));
      const refused = await hub.callTool('ext__report');
      assert.equal(refused.isError, true);
      assert.match(
        textOf(refused),
        /tool "report" of server ext runs only as a task \(the server answered -32021, naming the Tasks extension\), but the server does not declare the extension/,
      );
      assert.equal((await wireLog(hub)).wire.length, 0, 'no task request reached a server without the extension');
      assert.equal(textOf(await hub.callTool('ext__plain')), 'plain done');
    });
  });

  test('a -32042 answer on this path opens the URL question, as on a plain call', T, async () => {
    const urls: string[] = [];
    const handlers: ClientHandlers = {
      elicitation: elicitationHandler({
        url: async (req) => {
          urls.push(req.url);
          return 'accept';
        },
      }),
    };
    await hubWith(
      [server],
      async (hub) => {
        const result = await hub.callTool('ext__url_needed');
        assert.deepEqual(urls, ['https://example.com/sign-up']);
        // A 2026-07-28 server cannot say the person finished there (no unsolicited messages): the model is told so.
        assert.match(textOf(result), /the person opened https:\/\/example\.com\/sign-up .* did not say they finished there within 1\.5 s/);
      },
      1_500,
      handlers,
    );
  });

  test('over streamable HTTP: the task requests carry Mcp-Name, a task completes, asks, and Stop cancels it', T, async () => {
    const http = await startHttpServerProcess([join(repoRoot(), 'out', 'test', 'fakes', 'mcp-tasks-ext.js'), '--http'], { ready: /listening (\d+)/ });
    const handlers: ClientHandlers = { elicitation: elicitationHandler({ form: async () => ({ action: 'accept', content: { colour: 'red' } }) }) };
    try {
      await hubWith(
        [{ name: 'ext', transport: 'http', url: http.url }],
        async (hub) => {
          assert.equal(hub.statuses().find((s) => s.name === 'ext')?.tasks, true);
          // The server refuses a task request whose Mcp-Name is not its taskId: these would fail.
          assert.equal(textOf(await hub.callTool('ext__report')), 'reported 3 steps');
          assert.equal(textOf(await hub.callTool('ext__ask')), 'you chose red');
          const stop = new AbortController();
          const stopped = await hub.callTool(
            'ext__waits',
            {},
            { signal: stop.signal, onProgress: (_p, _t, m) => m?.startsWith('waiting') && stop.abort(new Error('Stop')) },
          );
          assert.equal(stopped._meta?.[FAILURE_META_KEY], 'cancelled');
          const log = await wireLog(hub);
          assert.deepEqual(
            log.tasks.map((t) => [t.tool, t.status]),
            [
              ['report', 'completed'],
              ['ask', 'completed'],
              ['waits', 'cancelled'],
            ],
          );
          assert.ok(log.wire.includes('tasks/cancel waits'), log.wire.join('\n'));
        },
        undefined,
        handlers,
      );
    } finally {
      await http.stop();
    }
  });
});
