// Task-augmented tool calls (MCP 2025-11-25) through the hub, against real servers: test/fakes/mcp-tasks.ts
// (a task that completes, one that fails, one stopped by the person, one the server never finishes, an
// optional one, and the same tools on a server without tasks) and server-everything's simulate-research-query.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClientHandlers } from '../../src/core/mcp/client/client-handlers';
import { elicitationHandler } from '../../src/core/mcp/client/elicitation-handler';
import { FAILURE_META_KEY, type McpHub } from '../../src/core/mcp/hub/hub';
import type { ServerConfig } from '../../src/core/mcp/types';
import { fakeConfig, textOf, withHub } from './mcp-support';
import { everythingConfig } from '../support/outside-servers';
import { scaled } from '../support/until';

const T = { timeout: scaled(60_000) };
const tasks = fakeConfig('tasks', 'mcp-tasks');
const everything: ServerConfig = everythingConfig();

interface Reported {
  progress: number;
  total: number | undefined;
  message: string | undefined;
}

function hubWith(configs: ServerConfig[], body: (hub: McpHub) => Promise<void>, callTimeoutMs?: number, handlers?: ClientHandlers): Promise<void> {
  return withHub(configs, { connection: { closeGraceMs: 200, callTimeoutMs, handlers }, changeDebounceMs: 5 }, async (hub) => {
    await hub.settled();
    await body(hub);
  });
}

async function taskLog(hub: McpHub): Promise<Array<{ tool: string; taskId: string; asked: boolean; polls: number; status: string }>> {
  return JSON.parse(textOf(await hub.callTool('tasks__task_log')));
}

describe('tools that run as tasks', () => {
  test('a required task tool is offered and runs: status and progress reach the caller, then its result', T, async () => {
    await hubWith([tasks], async (hub) => {
      const offered = hub.tools().map((t) => t.qualifiedName);
      for (const name of ['tasks__finishes', 'tasks__fails', 'tasks__waits', 'tasks__never']) assert.ok(offered.includes(name), `${name} is offered`);
      const seen: Reported[] = [];
      const result = await hub.callTool('tasks__finishes', {}, { onProgress: (progress, total, message) => void seen.push({ progress, total, message }) });
      assert.equal(result.isError, undefined);
      assert.equal(textOf(result), 'finished all 3 steps');
      // The server's progress notifications (kept alive past the CreateTaskResult) and its status messages.
      assert.ok(
        seen.some((s) => s.progress === 3 && s.total === 3),
        JSON.stringify(seen),
      );
      assert.ok(
        seen.some((s) => s.message === 'step 2 of 3'),
        JSON.stringify(seen),
      );
      assert.deepEqual(
        (await taskLog(hub)).map((t) => [t.tool, t.status]),
        [['finishes', 'completed']],
      );
    });
  });

  test('polling keeps to the pollInterval the server asks for', T, async () => {
    // 300 ms between polls; the task takes 3 steps of 600 ms: about 6 polls, never dozens.
    await hubWith([fakeConfig('tasks', 'mcp-tasks', '--poll=300')], async (hub) => {
      assert.equal(textOf(await hub.callTool('tasks__finishes')), 'finished all 3 steps');
      const [task] = await taskLog(hub);
      assert.ok(task, 'the server logged the task');
      assert.ok(task.polls >= 1 && task.polls <= 12, `${task.polls} tasks/get for a 1.8 s task at 300 ms`);
    });
  });

  test('a failed task comes back as an error result with the reason the server gave', T, async () => {
    await hubWith([tasks], async (hub) => {
      const result = await hub.callTool('tasks__fails');
      assert.equal(result.isError, true);
      assert.match(textOf(result), /the disk is full/);
    });
  });

  test('Stop cancels the task on the server (tasks/cancel) and ends the call at once', T, async () => {
    await hubWith([tasks], async (hub) => {
      const stop = new AbortController();
      const call = hub.callTool(
        'tasks__waits',
        {},
        {
          signal: stop.signal,
          // Stop once the task is visibly under way.
          onProgress: (_p, _t, message) => {
            if (message?.startsWith('waiting')) stop.abort(new Error('the person pressed Stop'));
          },
        },
      );
      const result = await call;
      assert.equal(result.isError, true);
      assert.equal(result._meta?.[FAILURE_META_KEY], 'cancelled');
      assert.match(textOf(result), /cancelled: the person pressed Stop/);
      assert.deepEqual(
        (await taskLog(hub)).map((t) => [t.tool, t.status]),
        [['waits', 'cancelled']],
      );
      // A task is cancelled with tasks/cancel alone: never notifications/cancelled, for its tools/call or its polls.
      const wire = JSON.parse(textOf(await hub.callTool('tasks__wire_log'))) as string[];
      assert.deepEqual(
        wire.map((w) => w.split(' ')[0]),
        ['tasks/cancel'],
        wire.join('\n'),
      );
      // The session goes on.
      assert.equal(textOf(await hub.callTool('tasks__finishes')), 'finished all 3 steps');
    });
  });

  test('a task the server never finishes ends with the call timeout, is cancelled, and nothing is stuck', T, async () => {
    await hubWith(
      [tasks],
      async (hub) => {
        const result = await hub.callTool('tasks__never');
        assert.equal(result.isError, true);
        assert.equal(result._meta?.[FAILURE_META_KEY], 'timeout');
        assert.match(textOf(result), /tool "never" on server tasks \(run as a task\) showed no progress for 1\.5 s; it was cancelled/);
        assert.deepEqual(
          (await taskLog(hub)).map((t) => [t.tool, t.status]),
          [['never', 'cancelled']],
        );
        assert.equal(textOf(await hub.callTool('tasks__quick')), 'quick done');
      },
      1_500,
    );
  });

  test('an optional task tool runs as a task where the server takes tasks', T, async () => {
    await hubWith([tasks], async (hub) => {
      assert.equal(textOf(await hub.callTool('tasks__quick')), 'quick done');
      // The host asked for the task (the SDK server would make one for a plain call of an optional tool too).
      assert.deepEqual(
        (await taskLog(hub)).map((t) => [t.tool, t.asked, t.status]),
        [['quick', true, 'completed']],
      );
    });
  });

  test('on a server without tasks, required task tools are not offered and a call says why; optional ones run plainly', T, async () => {
    const noTasks = fakeConfig('tasks', 'mcp-tasks', '--no-tasks');
    await hubWith([noTasks], async (hub) => {
      const offered = hub.tools().map((t) => t.qualifiedName);
      assert.ok(!offered.includes('tasks__finishes'));
      assert.ok(offered.includes('tasks__task_log'));
      const refused = await hub.callTool('tasks__finishes');
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /runs only as a task .* the server does not declare tasks/);
      assert.ok(offered.includes('tasks__quick'));
      const quick = await hub.callTool('tasks__quick');
      assert.equal(quick._meta?.[FAILURE_META_KEY], undefined, `sent as a plain call: ${textOf(quick)}`);
    });
  });

  test("server-everything's simulate-research-query runs to its report through tasks/get and tasks/result", T, async () => {
    await hubWith([everything], async (hub) => {
      assert.ok(
        hub.tools().some((t) => t.qualifiedName === 'everything__simulate-research-query'),
        'offered to the model',
      );
      const messages: string[] = [];
      const result = await hub.callTool('everything__simulate-research-query', { topic: 'tasks' }, { onProgress: (_p, _t, m) => m && messages.push(m) });
      assert.equal(result.isError, undefined, textOf(result));
      assert.match(textOf(result), /# Research Report: tasks/);
      // The card follows the task's status: what a poll saw, in the server's order (a poll may skip a stage, so
      // no one stage is required; seeing none would mean the status never reached the card).
      const stages = ['Gathering sources...', 'Analyzing content...', 'Synthesizing findings...', 'Generating report...'];
      assert.ok(messages.length > 0, 'some status reached the card');
      const order = messages.map((m) => stages.indexOf(m));
      assert.ok(
        order.every((i, k) => i >= 0 && (k === 0 || i >= order[k - 1]!)),
        messages.join(' | '),
      );
    });
  });

  test('a task that needs the person (input_required) gets its elicitation through tasks/result and finishes with the answer', T, async () => {
    const asked: string[] = [];
    const handlers: ClientHandlers = {
      elicitation: elicitationHandler({
        form: async (req) => {
          asked.push(req.message);
          return { action: 'accept', content: { interpretation: 'programming' } };
        },
      }),
    };
    await hubWith(
      [everything],
      async (hub) => {
        const result = await hub.callTool('everything__simulate-research-query', { topic: 'python', ambiguous: true });
        assert.equal(result.isError, undefined, textOf(result));
        assert.match(asked[0] ?? '', /could have multiple interpretations/);
        assert.match(textOf(result), /# Research Report: python \(programming\)/);
      },
      undefined,
      handlers,
    );
  });
});
