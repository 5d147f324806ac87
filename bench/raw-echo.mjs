// The raw-pipe reference server: one JSON line in, one JSON line out, no MCP library.
// Answers tools/call "echo" with its text and "big" with `bytes` characters, in the MCP result shape;
// initialize and tools/list minimally, so it also gives the floor for start time and memory.
import { createInterface } from 'node:readline';

function answer(msg) {
  if (msg.method === 'initialize') {
    return { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '0' } };
  }
  if (msg.method === 'tools/list') return { tools: [] };
  return { content: [{ type: 'text', text: msg.params?.arguments?.text }] };
}

// A big answer is written from a buffer made once per size, so the large section times the clients'
// read and parse: building and serializing tens of megabytes here would add server time (most of it garbage
// collection) that no client controls and that grows faster than the size.
const bodies = new Map();
function writeBig(id, bytes) {
  let body = bodies.get(bytes);
  if (!body) bodies.set(bytes, (body = Buffer.alloc(bytes, 'x')));
  process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`);
  process.stdout.write(body);
  process.stdout.write('"}]}}\n');
}

const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return; // a notification
  if (msg.method === 'tools/call' && msg.params?.name === 'big') return writeBig(msg.id, msg.params.arguments.bytes);
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: answer(msg) })}\n`);
});
rl.on('close', () => process.exit(0));
