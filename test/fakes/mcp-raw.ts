// A hand-written MCP server over newline-delimited JSON-RPC, for what the SDK's server will not do: tools
// without or with broken input schemas, a task-only tool, errors with any code, endless progress, a closed
// stdout. Usage: node mcp-raw.js [--close-stdout-after-init] (closes it after its first tools/list answer)
//   [--sloppy-schemas] (adds tools whose inputSchema is no valid JSON Schema: typo, dangling, badregex)
//   [--invalid-tools-list] (answers tools/list with a result that holds no list of tools)
//   [--slow-first-discover=FILE] (when FILE does not exist: makes it, takes the 2026-07-28 era on server/discover as a
//   bundled server does, answers it only after 60 s, and refuses a 2025-11-25 initialize meanwhile; once FILE exists,
//   server/discover is an unknown method and initialize is answered)
//   tools: echo(text); fail(code, message) answers a JSON-RPC error; spin sends progress every 50 ms and never
//   answers; junk writes a non-JSON line to stdout, then answers; cancellations lists the cancelled request ids;
//   malformed answers a result that is no CallToolResult (its content is text, not a list of blocks);
//   late_progress answers once the progress a spin sends after its cancel is over, with how many it sent ({ late }).
import { createInterface } from 'node:readline';
import { closeSync, existsSync, writeFileSync } from 'node:fs';

type Id = string | number;
interface Message {
  id?: Id;
  method?: string;
  params?: Record<string, unknown> & { _meta?: { progressToken?: Id }; name?: string; arguments?: Record<string, unknown> };
}

const closeAfterInit = process.argv.includes('--close-stdout-after-init');
const sloppySchemas = process.argv.includes('--sloppy-schemas');
const invalidToolsList = process.argv.includes('--invalid-tools-list');
const slowDiscover = process.argv.find((a) => a.startsWith('--slow-first-discover='))?.split('=')[1];
const firstStart = slowDiscover !== undefined && !existsSync(slowDiscover);
if (firstStart) writeFileSync(slowDiscover, 'started once\n');
let modern = false;
const cancelled: Id[] = [];
const spinning = new Map<Id, NodeJS.Timeout>();
/** Spins cancelled whose late progress goes on, the progress they sent after the cancel, and who waits for its end. */
const winding = new Set<Id>();
let lateProgress = 0;
const quietWaiters: Array<() => void> = [];

let stdoutClosed = false;
process.stdout.on('error', () => undefined);

function send(message: object): void {
  if (!stdoutClosed) process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
}

const TOOLS = [
  { name: 'echo', description: 'Echoes its text', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
  { name: 'noschema', description: 'Has no inputSchema' },
  { name: 'badschema', description: 'Has a non-object inputSchema', inputSchema: { type: 'string' } },
  { name: 'taskonly', description: 'Runs only as a task', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } },
  { name: 'fail', description: 'Answers a JSON-RPC error', inputSchema: { type: 'object' } },
  { name: 'spin', description: 'Progress forever, no answer', inputSchema: { type: 'object' } },
  { name: 'junk', description: 'Writes junk to stdout', inputSchema: { type: 'object' } },
  { name: 'cancellations', description: 'Cancelled request ids', inputSchema: { type: 'object' } },
  { name: 'malformed', description: 'Answers a result that is no CallToolResult', inputSchema: { type: 'object' } },
  { name: 'late_progress', description: 'Answers once late progress is over', inputSchema: { type: 'object' } },
];

/** Schemas that parse as objects but are no valid JSON Schema: the Messages API refuses a request carrying one. */
const SLOPPY = [
  { name: 'typo', description: 'A type that is no JSON type', inputSchema: { type: 'object', properties: { q: { type: 'strin' } } } },
  { name: 'dangling', description: 'A $ref to nothing', inputSchema: { type: 'object', properties: { q: { $ref: '#/$defs/missing' } } } },
  { name: 'badregex', description: 'A pattern that is no regex', inputSchema: { type: 'object', properties: { q: { type: 'string', pattern: '([a-z' } } } },
];

function callTool(m: Message): void {
  const args = m.params?.arguments ?? {};
  const text = (t: string): void => send({ id: m.id, result: { content: [{ type: 'text', text: t }] } });
  switch (m.params?.name) {
    case 'echo':
      return text(String(args.text ?? ''));
    case 'fail':
      return send({ id: m.id, error: { code: Number(args.code), message: String(args.message) } });
    case 'spin': {
      const token = m.params?._meta?.progressToken;
      let n = 0;
      const id = m.id as Id;
      const timer = setInterval(() => {
        if (winding.has(id)) lateProgress++;
        send({ method: 'notifications/progress', params: { progressToken: token, progress: ++n } });
      }, 50);
      spinning.set(id, timer);
      // Keeps reporting progress even after a cancel, as a careless server does, for a while.
      return;
    }
    case 'junk':
      process.stdout.write('this is not JSON-RPC\n');
      return text('junk sent');
    case 'cancellations':
      return text(JSON.stringify(cancelled));
    case 'malformed':
      return send({ id: m.id, result: { content: 'not a list of blocks' } });
    case 'late_progress': {
      // Answered after the last late progress line: stdout keeps their order, so the client has read them all by then.
      const answer = (): void => text(JSON.stringify({ late: lateProgress }));
      if (winding.size === 0) return answer();
      quietWaiters.push(answer);
      return;
    }
    default:
      return send({ id: m.id, error: { code: -32602, message: `Unknown tool: ${m.params?.name}` } });
  }
}

function handle(m: Message): void {
  switch (m.method) {
    case 'server/discover':
      if (!firstStart) return send({ id: m.id, error: { code: -32601, message: 'Method not found: server/discover' } });
      modern = true;
      setTimeout(() => send({ id: m.id, result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } }), 60_000);
      return;
    case 'initialize':
      if (modern) return send({ id: m.id, error: { code: -32022, message: 'Unsupported protocol version: 2025-11-25' } });
      return send({
        id: m.id,
        result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'mcp-raw', version: '0.0.0' } },
      });
    case 'notifications/cancelled': {
      const id = (m.params as { requestId?: Id } | undefined)?.requestId;
      if (id !== undefined) {
        cancelled.push(id);
        const timer = spinning.get(id);
        // Late progress after the cancel: one more second of it.
        if (timer) {
          winding.add(id);
          setTimeout(() => {
            clearInterval(timer);
            winding.delete(id);
            if (winding.size === 0) for (const answer of quietWaiters.splice(0)) answer();
          }, 1000);
        }
      }
      return;
    }
    case 'tools/list':
      send({ id: m.id, result: invalidToolsList ? { tools: 'all of them' } : { tools: sloppySchemas ? [...TOOLS, ...SLOPPY] : TOOLS } });
      if (closeAfterInit && !stdoutClosed) {
        // Once it is ready, stdout ends and the process lives on (a pipe that broke, a server that closed it).
        stdoutClosed = true;
        process.stdout.end(() => closeSync(1));
        setInterval(() => undefined, 1000);
      }
      return;
    case 'tools/call':
      return callTool(m);
    case 'ping':
      return send({ id: m.id, result: {} });
    default:
      if (m.id !== undefined) send({ id: m.id, error: { code: -32601, message: `Method not found: ${m.method}` } });
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim()) handle(JSON.parse(line) as Message);
});
process.stdin.on('end', () => process.exit(0));
