/**
 * An MCP server of the 2026-07-28 era whose tools run as tasks through the Tasks extension
 * (io.modelcontextprotocol/tasks, https://modelcontextprotocol.github.io/ext-tasks/specification/2026-07-28/tasks.html),
 * for the host's tests. No npm package serves that extension yet, and the v2 server SDK refuses `resultType: "task"`,
 * so this is hand-written JSON-RPC over stdio, following the extension's spec: task creation is the server's choice,
 * only for a request whose `_meta` client capabilities declare the extension (else -32021 naming it); tasks/get
 * answers the DetailedTask (result, error or inputRequests inline) with `resultType: "complete"`; tasks/update
 * acknowledges at once and takes only outstanding keys; tasks/cancel acknowledges and cancels a live task; an unknown
 * task is -32602; no progress notifications for a task.
 * Tools (each a task, unless said):
 *   report    three status messages ("step N of 3"), then "reported 3 steps"
 *   ask       asks one form question (key `colour-1`) as an input request, then says what came back
 *   sample    asks the client's model once (key `model-1`, sampling/createMessage), then says what it answered
 *   waits     works ("waiting to be cancelled") until cancelled
 *   never     works, silent, forever
 *   fails     fails with the JSON-RPC error -32603 "the disk is full"
 *   dies      the process exits 100 ms after making the task
 *   needs_tasks  declared `execution.taskSupport: "required"` (a host that cannot run tasks must not offer it); done at once
 *   plain     not a task: answers at once, after one progress notification when asked for progress
 *   url_needed  not a task: the -32042 "URL elicitation required" error (a page at https://example.com/sign-up)
 *   wire_log  not a task: what the server saw, as JSON: `wire` (every tasks/* request and notifications/cancelled, in
 *             order: `<method> <tool>`), `tasks` (tool, status, polls), `undeclared` (requests without the extension)
 * Flags: --no-ext (declares no extension: every task tool answers -32021), --poll=N (pollIntervalMs, default 50),
 *   --http (stateless streamable HTTP at http://127.0.0.1:<port>/mcp, each answer as JSON; prints `listening <port>`):
 *   a task request whose `Mcp-Name` header is not its taskId (the extension's routing header) is refused, -32001.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';

type Id = string | number;
interface Message {
  id?: Id;
  method?: string;
  params?: Record<string, unknown> & { _meta?: Record<string, unknown> };
}
type Status = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
interface TaskState {
  taskId: string;
  tool: string;
  status: Status;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
  inputRequests?: Record<string, unknown>;
  polls: number;
}

const EXT = 'io.modelcontextprotocol/tasks';
const VERSION = '2026-07-28';
const flag = (name: string): string | undefined => {
  const hit = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return hit === undefined ? undefined : (hit.split('=')[1] ?? '');
};
const withExt = flag('no-ext') === undefined;
const pollIntervalMs = Number(flag('poll') ?? 50);

const tasks = new Map<string, TaskState>();
const wire: string[] = [];
let undeclared = 0;

/** Where a message goes: stdout, or (over HTTP) the answer to the POST being handled. */
let send = (message: object): void => {
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
};
const answer = (id: Id, result: Record<string, unknown>): void => send({ id, result: { resultType: 'complete', ...result } });
const fail = (id: Id, code: number, message: string, data?: unknown): void => send({ id, error: { code, message, ...(data ? { data } : {}) } });
// A 2026-07-28 result carries its resultType, inside a task's `result` too.
const text = (t: string): Record<string, unknown> => ({ resultType: 'complete', content: [{ type: 'text', text: t }] });
const now = (): string => new Date().toISOString();

const schema = { type: 'object', properties: {} };
const TOOLS = [
  { name: 'report', description: 'Reports three steps as a task', inputSchema: schema },
  { name: 'ask', description: 'Asks for a colour while running as a task', inputSchema: schema },
  { name: 'sample', description: 'Asks the client model while running as a task', inputSchema: schema },
  { name: 'waits', description: 'Works until cancelled', inputSchema: schema },
  { name: 'never', description: 'Never ends', inputSchema: schema },
  { name: 'fails', description: 'Fails as a task', inputSchema: schema },
  { name: 'dies', description: 'Its server exits while it runs', inputSchema: schema },
  { name: 'needs_tasks', description: 'Runs only as a task', inputSchema: schema, execution: { taskSupport: 'required' } },
  { name: 'plain', description: 'Answers at once', inputSchema: schema },
  { name: 'url_needed', description: 'Needs the person at a page first', inputSchema: schema },
  { name: 'wire_log', description: 'What this server saw', inputSchema: schema },
];

/** The extension is declared by the request itself, in its envelope; an earlier request's declaration does not count. */
function declares(params: Message['params']): boolean {
  const caps = params?._meta?.['io.modelcontextprotocol/clientCapabilities'] as { extensions?: Record<string, unknown> } | undefined;
  const ext = caps?.extensions?.[EXT];
  return ext !== null && typeof ext === 'object';
}

const missingExtension = (id: Id): void => fail(id, -32021, 'Missing required client capability', { requiredCapabilities: { extensions: { [EXT]: {} } } });

function view(task: TaskState): Record<string, unknown> {
  const { polls: _polls, tool: _tool, ...rest } = task;
  return { ...rest, ttlMs: 60_000, pollIntervalMs };
}

function update(task: TaskState, change: Partial<TaskState>): void {
  if (task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled') return;
  Object.assign(task, change, { lastUpdatedAt: now() });
}

function later(ms: number, task: TaskState, work: () => void): void {
  setTimeout(() => {
    if (task.status !== 'cancelled') work();
  }, ms);
}

function start(task: TaskState): void {
  switch (task.tool) {
    case 'report':
      for (const step of [1, 2, 3]) later(step * 150, task, () => update(task, { statusMessage: `step ${step} of 3` }));
      later(600, task, () => update(task, { status: 'completed', statusMessage: 'done', result: text('reported 3 steps') }));
      break;
    case 'ask':
      later(50, task, () =>
        update(task, {
          status: 'input_required',
          statusMessage: 'waiting for a colour',
          inputRequests: {
            'colour-1': {
              method: 'elicitation/create',
              params: {
                mode: 'form',
                message: 'Which colour?',
                requestedSchema: { type: 'object', properties: { colour: { type: 'string' } }, required: ['colour'] },
              },
            },
          },
        }),
      );
      break;
    case 'sample':
      later(50, task, () =>
        update(task, {
          status: 'input_required',
          statusMessage: 'waiting for the model',
          inputRequests: {
            'model-1': {
              method: 'sampling/createMessage',
              params: { messages: [{ role: 'user', content: { type: 'text', text: 'What is six times seven?' } }], maxTokens: 20 },
            },
          },
        }),
      );
      break;
    case 'waits':
      update(task, { statusMessage: 'waiting to be cancelled' });
      break;
    case 'fails':
      later(50, task, () => update(task, { status: 'failed', statusMessage: 'the disk is full', error: { code: -32603, message: 'the disk is full' } }));
      break;
    case 'dies':
      setTimeout(() => process.exit(3), 100);
      break;
    case 'needs_tasks':
      update(task, { status: 'completed', result: text('ran as a task') });
      break;
  }
}

function callTool(id: Id, params: NonNullable<Message['params']>): void {
  const name = String(params.name);
  if (!TOOLS.some((t) => t.name === name)) return fail(id, -32602, `Unknown tool: ${name}`);
  if (name === 'wire_log') {
    const list = [...tasks.values()].map((t) => ({ tool: t.tool, status: t.status, polls: t.polls }));
    return answer(id, text(JSON.stringify({ wire, tasks: list, undeclared })));
  }
  if (name === 'url_needed') {
    const elicitations = [{ mode: 'url', elicitationId: 'sign-up-1', url: 'https://example.com/sign-up', message: 'Sign up first' }];
    return fail(id, -32042, 'URL elicitation required', { elicitations });
  }
  if (name === 'plain') {
    const token = params._meta?.progressToken;
    if (token !== undefined) send({ method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 2, message: 'half way' } });
    return answer(id, text('plain done'));
  }
  // The server's choice: these tools always run as tasks, which a client must have declared it takes.
  if (!withExt || !declares(params)) {
    undeclared++;
    return missingExtension(id);
  }
  const created = now();
  const task: TaskState = { taskId: randomUUID(), tool: name, status: 'working', createdAt: created, lastUpdatedAt: created, polls: 0 };
  tasks.set(task.taskId, task);
  start(task);
  send({ id, result: { resultType: 'task', ...view(task) } });
}

function taskRequest(id: Id, method: string, params: Message['params']): void {
  if (!withExt || !declares(params)) {
    undeclared++;
    return missingExtension(id);
  }
  const task = tasks.get(String(params?.taskId));
  wire.push(`${method} ${task?.tool ?? '?'}`);
  if (!task) return fail(id, -32602, 'Failed to retrieve task: Task not found');
  if (method === 'tasks/get') {
    task.polls++;
    const { inputRequests, result, error, ...rest } = view(task);
    const inline = task.status === 'input_required' ? { inputRequests } : task.status === 'completed' ? { result } : task.status === 'failed' ? { error } : {};
    return answer(id, { ...rest, ...inline });
  }
  if (method === 'tasks/update') {
    const responses = (params?.inputResponses ?? {}) as Record<string, { action?: string; content?: { colour?: string; text?: string } }>;
    const reply = task.status === 'input_required' ? responses['colour-1'] : undefined;
    const sampled = task.status === 'input_required' ? responses['model-1'] : undefined;
    answer(id, {});
    if (sampled) {
      update(task, { status: 'working', statusMessage: 'got an answer', inputRequests: undefined });
      later(50, task, () => update(task, { status: 'completed', statusMessage: 'done', result: text(`the model said ${sampled.content?.text}`) }));
    }
    if (reply) {
      update(task, { status: 'working', statusMessage: 'got an answer', inputRequests: undefined });
      const said = reply.action === 'accept' ? `you chose ${reply.content?.colour}` : `you did not choose (${reply.action})`;
      later(50, task, () => update(task, { status: 'completed', statusMessage: 'done', result: text(said) }));
    }
    return;
  }
  // tasks/cancel: acknowledged; a live task is cancelled (cooperation is the server's, and this one cooperates).
  update(task, { status: 'cancelled', statusMessage: 'cancelled at the client request', inputRequests: undefined });
  answer(id, {});
}

function handle(message: Message): void {
  const { id, method, params } = message;
  if (method === 'notifications/cancelled') {
    wire.push(`notifications/cancelled ${String((params as { requestId?: unknown } | undefined)?.requestId)}`);
    return;
  }
  if (id === undefined || method === undefined) return;
  if (method === 'initialize') return fail(id, -32602, `Unsupported protocol version: this server speaks ${VERSION} only`);
  if (params?._meta?.['io.modelcontextprotocol/protocolVersion'] !== VERSION) return fail(id, -32602, 'Missing or unsupported protocol version in _meta');
  if (method === 'server/discover') {
    return answer(id, {
      supportedVersions: [VERSION],
      capabilities: { tools: {}, ...(withExt ? { extensions: { [EXT]: {} } } : {}) },
      ttlMs: 0,
      cacheScope: 'private',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'tasks-ext', version: '1.0.0' } },
    });
  }
  if (method === 'tools/list') return answer(id, { tools: TOOLS, ttlMs: 0, cacheScope: 'private' });
  if (method === 'tools/call' && params) return callTool(id, params);
  if (method === 'tasks/get' || method === 'tasks/update' || method === 'tasks/cancel') return taskRequest(id, method, params);
  fail(id, -32601, `Method not found: ${method}`);
}

/** The routing header the extension requires on tasks/get, tasks/update and tasks/cancel over HTTP. */
function misrouted(req: IncomingMessage, message: Message): boolean {
  return message.method?.startsWith('tasks/') === true && req.headers['mcp-name'] !== String(message.params?.taskId);
}

if (flag('http') !== undefined) {
  const http = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/mcp') {
        res.writeHead(405).end();
        return;
      }
      const message = JSON.parse(body) as Message;
      const out: object[] = [];
      send = (m) => out.push({ jsonrpc: '2.0', ...m });
      if (misrouted(req, message) && message.id !== undefined) fail(message.id, -32001, 'Mcp-Name header does not match params.taskId');
      else handle(message);
      // Progress notifications have no place in a JSON answer: only the response goes back.
      const response = out.find((m) => 'id' in m);
      if (!response) res.writeHead(202).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(response));
    });
  });
  http.listen(0, '127.0.0.1', () => console.log(`listening ${(http.address() as AddressInfo).port}`));
} else {
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (!line.trim()) return;
    try {
      handle(JSON.parse(line) as Message);
    } catch (err) {
      process.stderr.write(`bad line: ${String(err)}\n`);
    }
  });
  process.stdin.on('end', () => process.exit(0));
}
