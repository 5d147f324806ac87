/**
 * A small, scriptable MCP server for the host's tests (one process, stdio).
 * Tools: echo, slow (progress), big (N bytes), crash (exits mid-call), hang (never answers),
 * cancellations (what notifications/cancelled it saw), roots, add_tool (sends tools/list_changed), members (the
 * first call answers -32042 "URL elicitation required", then says the person finished there; the next one answers).
 * Flags: --junk (prints text to stdout before and between its JSON), --flood-stderr (writes
 * stderr without pause), --exit-at-start=N (writes to stderr and exits N before any JSON),
 * --name=X (serverInfo name), --record=FILE (appends `spawn` when it starts and the method of each message it reads),
 * --initialize-first (exits when its first message is not initialize, as servers on the Rust SDK, rmcp, do),
 * --slow-first-start=FILE (when FILE does not exist: makes it and never answers, as a cold `npx -y` download
 * outlasting any limit; once it exists the server starts as usual), --start-when=FILE (makes FILE.waiting, then answers nothing until FILE exists).
 */
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { UrlElicitationRequiredError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

const flag = (name: string): string | undefined => {
  const hit = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return hit === undefined ? undefined : (hit.split('=')[1] ?? '');
};

const exitAtStart = flag('exit-at-start');
if (exitAtStart !== undefined) {
  process.stderr.write('echo: refusing to start: boom\n');
  process.exit(Number(exitAtStart) || 1);
}

const record = flag('record');
if (record) {
  appendFileSync(record, 'spawn\n');
  process.stdin.on('data', (chunk: Buffer) => {
    for (const m of chunk.toString().matchAll(/"method":"([^"]+)"/g)) appendFileSync(record, `${m[1]}\n`);
  });
}

const junk = flag('junk') !== undefined;
if (junk) process.stdout.write('hello from a chatty server\nloading config...\n{"not":"json-rpc"}\n');

if (flag('flood-stderr') !== undefined) {
  const line = `${'stderr flood '.repeat(100)}\n`.repeat(64);
  const pump = (): void => {
    // Respect back-pressure so the flood is as fast as the reader, no faster.
    while (process.stderr.write(line));
    process.stderr.once('drain', pump);
  };
  pump();
}

const server = new McpServer({ name: flag('name') || 'echo', version: '1.0.0' });
/** Every notifications/cancelled as it came over the wire, with the tool its request called. */
const cancellations: Array<{ tool: string; requestId: string | number; reason: string }> = [];
const calledTools = new Map<string | number, string>();
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const text = (t: string): { content: Array<{ type: 'text'; text: string }> } => ({ content: [{ type: 'text', text: t }] });
const noise = (): void => {
  if (junk) process.stdout.write('[log] handled a call\n');
};

function waitForAbort(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) => {
    if (signal.aborted) reject(new Error('cancelled'));
    signal.addEventListener('abort', () => reject(new Error('cancelled')));
  });
}

server.registerTool('echo', { description: 'Echoes its text', inputSchema: { text: z.string() } }, async ({ text: t }) => {
  noise();
  return text(t);
});

server.registerTool(
  'slow',
  { description: 'Waits ms, reporting progress steps times', inputSchema: { ms: z.number(), steps: z.number().optional() } },
  async ({ ms, steps = 4 }, extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= steps; i++) {
      await sleep(ms / steps);
      if (token !== undefined) {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: i, total: steps, message: `step ${i}` },
        });
      }
    }
    return text(`slept ${ms} ms`);
  },
);

server.registerTool('big', { description: 'Returns bytes characters', inputSchema: { bytes: z.number() } }, async ({ bytes }) => text('x'.repeat(bytes)));

server.registerTool('crash', { description: 'Exits in the middle of the call' }, async () => {
  process.stderr.write('echo: crashing on purpose\n');
  setTimeout(() => process.exit(1), 20);
  return new Promise<never>(() => undefined);
});

server.registerTool('hang', { description: 'Never answers (after one progress "waiting")' }, async (extra) => {
  const token = extra._meta?.progressToken;
  if (token !== undefined) {
    await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: 0, message: 'waiting' } });
  }
  return waitForAbort(extra.signal);
});

server.registerTool('cancellations', { description: 'The cancellations seen so far, as JSON' }, async () => text(JSON.stringify(cancellations)));

server.registerTool('roots', { description: "The client's roots (roots/list), as JSON" }, async () =>
  text(JSON.stringify((await server.server.listRoots()).roots)),
);

let signedUp = false;
server.registerTool('members', { description: 'Members only: the person signs up in their browser first' }, async () => {
  if (signedUp) return text('welcome, member');
  const elicitationId = 'sign-up-1';
  // As a server would once the page says the person is done.
  setTimeout(() => {
    signedUp = true;
    void server.server.createElicitationCompletionNotifier(elicitationId)();
  }, 50);
  throw new UrlElicitationRequiredError([{ mode: 'url', elicitationId, url: 'https://example.com/sign-up?from=echo', message: 'Sign up to see this' }]);
});

let added = 0;
server.registerTool('add_tool', { description: 'Adds a tool (sends tools/list_changed)' }, async () => {
  const name = `added_${++added}`;
  server.registerTool(name, { description: 'Added at run time' }, async () => text(name));
  return text(name);
});

server.registerResource('readme', 'echo://readme', { description: 'A fixed text', mimeType: 'text/plain' }, async (uri) => ({
  contents: [{ uri: uri.href, text: 'echo readme' }],
}));

server.registerPrompt('greet', { description: 'Greets', argsSchema: { who: z.string() } }, ({ who }) => ({
  messages: [{ role: 'user', content: { type: 'text', text: `Hello ${who}` } }],
}));

const slowFirst = flag('slow-first-start');
const stalled = slowFirst !== undefined && !existsSync(slowFirst);
if (stalled) {
  writeFileSync(slowFirst, 'started once\n');
  process.stderr.write('echo: downloading the internet (first start)\n');
}

const initializeFirst = flag('initialize-first') !== undefined;
let initialized = false;
const transport = new StdioServerTransport();
process.stdin.on('end', () => process.exit(0));
const gate = flag('start-when');
if (gate) writeFileSync(`${gate}.waiting`, '');
if (stalled) process.stdin.resume();
else
  void untilExists(gate)
    .then(() => server.connect(transport))
    .then(() => {
      // Watch the wire: a request cancelled before its handler ran never sees its signal fire.
      const deliver = transport.onmessage;
      transport.onmessage = (message: JSONRPCMessage) => {
        if ('method' in message && message.method === 'tools/call' && 'id' in message) {
          calledTools.set(message.id, String(message.params?.name));
        }
        if ('method' in message && message.method === 'notifications/cancelled') {
          const params = message.params as { requestId: string | number; reason?: string };
          cancellations.push({ tool: calledTools.get(params.requestId) ?? '?', requestId: params.requestId, reason: String(params.reason) });
        }
        if (initializeFirst && !initialized && !('method' in message && message.method === 'initialize')) {
          process.stderr.write(`echo: expected initialize first, got ${'method' in message ? message.method : 'a response'}\n`);
          process.exit(1);
        }
        initialized = true;
        deliver?.(message);
      };
      process.stderr.write('echo: ready\n');
    });

/** Resolves once `file` exists (at once without one). */
function untilExists(file: string | undefined): Promise<void> {
  if (file === undefined || existsSync(file)) return Promise.resolve();
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      if (!existsSync(file)) return;
      clearInterval(poll);
      resolve();
    }, 20);
  });
}
