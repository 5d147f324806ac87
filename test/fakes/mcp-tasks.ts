/**
 * An MCP server whose tools run as tasks (spec 2025-11-25, the SDK's experimental server-side support), for the
 * host's task tests. One process, stdio.
 * Tools (taskSupport "required" unless said): finishes (three steps with status and progress, then its text),
 * fails (a failed task with the reason), waits (works until cancelled), never (accepted, then silent: never
 * changes, never ends), quick (taskSupport "optional": done at once), task_log (a plain tool: every task this
 * server saw, whether the host asked for it as a task, how many tasks/get it had, and its status now, as JSON),
 * wire_log (every tasks/cancel and notifications/cancelled it read, in order, as JSON).
 * Flags: --no-tasks (the same tools but no `tasks` capability: a host must not offer the required ones),
 * --poll=N (the pollInterval the server asks for, ms; default 50).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { InMemoryTaskMessageQueue, InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import type { CallToolResult, JSONRPCMessage, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

const flag = (name: string): string | undefined => {
  const hit = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return hit === undefined ? undefined : (hit.split('=')[1] ?? '');
};

const withTasks = flag('no-tasks') === undefined;
const pollInterval = Number(flag('poll') ?? 50);
const taskStore = new InMemoryTaskStore();
const server = new McpServer(
  { name: 'tasks', version: '1.0.0' },
  {
    capabilities: {
      tools: {},
      ...(withTasks ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } : {}),
    },
    ...(withTasks ? { taskStore, taskMessageQueue: new InMemoryTaskMessageQueue() } : {}),
  },
);

/** Every task created, by id: the tool that made it and whether the host asked for a task (the store knows its status). */
const made = new Map<string, { tool: string; asked: boolean }>();
/** Tool name -> whether its latest tools/call carried `task` (an optional tool is run as a task by the SDK either way). */
const askedForTask = new Map<string, boolean>();
/** Task id -> how many tasks/get it had. */
const polls = new Map<string, number>();
/** The cancellations as they came over the wire, in order: `tasks/cancel <taskId>` or `notifications/cancelled <method of the request>`. */
const wire: string[] = [];
/** Request id -> its method, to name what a notifications/cancelled was about. */
const methods = new Map<string | number, string>();

type Extra = Parameters<Parameters<typeof server.experimental.tasks.registerToolTask>[2]['createTask']>[1];
type Work = (taskId: string, extra: Extra) => Promise<void>;

const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function isCancelled(taskId: string, extra: Extra): Promise<boolean> {
  return (await extra.taskStore.getTask(taskId))?.status === 'cancelled';
}

function registerTask(name: string, description: string, taskSupport: 'required' | 'optional', work: Work): void {
  server.experimental.tasks.registerToolTask(
    name,
    { description, inputSchema: { note: z.string().optional() }, execution: { taskSupport } },
    {
      createTask: async (_args, extra) => {
        const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval });
        made.set(task.taskId, { tool: name, asked: askedForTask.get(name) ?? false });
        void work(task.taskId, extra).catch((err) => process.stderr.write(`tasks: ${name} ${task.taskId}: ${String(err)}\n`));
        return { task };
      },
      getTask: async (_args, extra) => (await extra.taskStore.getTask(extra.taskId))!,
      getTaskResult: async (_args, extra) => (await extra.taskStore.getTaskResult(extra.taskId)) as CallToolResult,
    },
  );
}

registerTask('finishes', 'Three steps, each with a status message and progress, then a result.', 'required', async (taskId, extra) => {
  const token = extra._meta?.progressToken;
  for (let step = 1; step <= 3; step++) {
    await tick(pollInterval * 2);
    if (await isCancelled(taskId, extra)) return;
    await extra.taskStore.updateTaskStatus(taskId, 'working', `step ${step} of 3`);
    if (token !== undefined) {
      const progress: ServerNotification = {
        method: 'notifications/progress',
        params: { progressToken: token, progress: step, total: 3, message: `step ${step} of 3` },
      };
      await extra.sendNotification(progress);
    }
  }
  await extra.taskStore.storeTaskResult(taskId, 'completed', { content: [{ type: 'text', text: 'finished all 3 steps' }] });
});

registerTask('fails', 'Fails after a step, saying why.', 'required', async (taskId, extra) => {
  await tick(pollInterval);
  await extra.taskStore.storeTaskResult(taskId, 'failed', { content: [{ type: 'text', text: 'the disk is full' }], isError: true });
});

registerTask('waits', 'Works until it is cancelled.', 'required', async (taskId, extra) => {
  for (let i = 0; !(await isCancelled(taskId, extra)); i++) {
    await extra.taskStore.updateTaskStatus(taskId, 'working', `waiting (${i})`).catch(() => undefined);
    await tick(pollInterval);
  }
});

// Accepted, then nothing: no status change, no progress, no end.
registerTask('never', 'Never finishes and never reports.', 'required', async () => undefined);

registerTask('quick', 'Done at once (a task only when the host asks for one).', 'optional', async (taskId, extra) => {
  await extra.taskStore.storeTaskResult(taskId, 'completed', { content: [{ type: 'text', text: 'quick done' }] });
});

server.registerTool('wire_log', { description: 'Every cancellation this server read, in order.' }, () => ({
  content: [{ type: 'text', text: JSON.stringify(wire) }],
}));

server.registerTool('task_log', { description: 'Every task this server saw and its status now.' }, async () => {
  const tasks = [];
  for (const [taskId, { tool, asked }] of made)
    tasks.push({ tool, taskId, asked, polls: polls.get(taskId) ?? 0, status: (await taskStore.getTask(taskId))?.status ?? 'gone' });
  return { content: [{ type: 'text', text: JSON.stringify(tasks) }] };
});

const transport = new StdioServerTransport();
process.stdin.on('end', () => process.exit(0));
void server.connect(transport).then(() => {
  // Watch the wire: whether the host asked for a task is in the request, which the task handlers do not see.
  const deliver = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ('method' in message && message.method === 'tools/call') {
      askedForTask.set(String(message.params?.name), message.params?.task !== undefined);
    }
    if ('method' in message && 'id' in message) methods.set(message.id, message.method);
    if ('method' in message && message.method === 'tasks/cancel') wire.push(`tasks/cancel ${String(message.params?.taskId)}`);
    if ('method' in message && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: string | number } | undefined)?.requestId;
      wire.push(`notifications/cancelled ${id === undefined ? '?' : (methods.get(id) ?? String(id))}`);
    }
    if ('method' in message && message.method === 'tasks/get') {
      const id = String(message.params?.taskId);
      polls.set(id, (polls.get(id) ?? 0) + 1);
    }
    deliver?.(message);
  };
});
