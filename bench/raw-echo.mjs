// The raw-pipe reference server: one JSON line in, one JSON line out, no MCP library.
// Answers tools/call "echo" with its text and "big" with `bytes` characters, in the MCP result shape;
// initialize and tools/list minimally, so it also gives the floor for start time and memory.
import { createInterface } from 'node:readline';

function answer(msg) {
  if (msg.method === 'initialize') {
    return { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '0' } };
  }
  if (msg.method === 'tools/list') return { tools: [] };
  const args = msg.params?.arguments ?? {};
  const text = msg.params?.name === 'big' ? 'x'.repeat(args.bytes) : args.text;
  return { content: [{ type: 'text', text }] };
}

const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return; // a notification
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: answer(msg) })}\n`);
});
rl.on('close', () => process.exit(0));
