/**
 * An MCP server (2025-11-25, one process, stdio) that asks the host for sampling and forms as tasks, and then
 * asks about those tasks as it likes: ones it never got, another server's, before they are done, many at once.
 * Each tool answers with what the host replied, as JSON: `{ result }` or `{ error: { code, message } }`.
 * Tools: ask {kind: sampling|form, count?} (that many task-augmented requests at once), get/result/cancel {taskId}
 * (tasks/get, tasks/result, tasks/cancel), list (tasks/list), settle {taskId} (tasks/get until the task has ended,
 * then its last status), echo {text}.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';

const server = new McpServer({ name: 'task-asker', version: '1.0.0' });
const json = (v: unknown): { content: Array<{ type: 'text'; text: string }> } => ({ content: [{ type: 'text', text: JSON.stringify(v) }] });
const outcome = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    (result) => ({ result }),
    (err: { code?: number; message?: string }) => ({ error: { code: err.code, message: err.message } }),
  );
const anything = z.looseObject({});
const send = (method: string, params: Record<string, unknown>): Promise<unknown> => outcome(server.server.request({ method, params } as never, anything));

const TTL = 60_000;
const sampling = (i: number) => ({
  task: { ttl: TTL },
  messages: [{ role: 'user', content: { type: 'text', text: `task request ${i}` } }],
  maxTokens: 50,
  systemPrompt: 'Answer as a task.',
});
const form = (i: number) => ({
  task: { ttl: TTL },
  mode: 'form',
  message: `task form ${i}`,
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
});

server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));

server.registerTool('ask', { inputSchema: { kind: z.enum(['sampling', 'form']), count: z.number().int().optional() } }, async ({ kind, count }) => {
  const all = Array.from({ length: count ?? 1 }, (_, i) =>
    kind === 'sampling' ? send('sampling/createMessage', sampling(i)) : send('elicitation/create', form(i)),
  );
  return json(await Promise.all(all));
});

for (const method of ['get', 'result', 'cancel'] as const) {
  server.registerTool(method, { inputSchema: { taskId: z.string() } }, async ({ taskId }) => json(await send(`tasks/${method}`, { taskId })));
}

server.registerTool('list', {}, async () => json(await send('tasks/list', {})));

const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

server.registerTool('settle', { inputSchema: { taskId: z.string() } }, async ({ taskId }) => {
  for (;;) {
    const got = (await send('tasks/get', { taskId })) as { result?: { status?: string } };
    const status = got.result?.status;
    if (!status || ['completed', 'failed', 'cancelled'].includes(status)) return json(got);
    await tick(20);
  }
});

void server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
