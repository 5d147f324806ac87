/**
 * An MCP App server that counts the reads of its views (stdio). `stamp`'s view is new at every read: it says
 * which read it is ("read 3"), as a view a server rebuilt would differ. `stamp` itself answers only once its
 * view has been read as often as it has been called (or after --wait-ms), and says how many reads it saw by
 * then: whether the host read the view while the call ran. `broken` has a view whose read fails. `reads` says
 * how many reads of `stamp`'s view the server has answered.
 * Usage: node mcp-app-reads.js [--wait-ms=N]
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const waitMs = Number((process.argv.find((a) => a.startsWith('--wait-ms=')) ?? '--wait-ms=10000').slice('--wait-ms='.length));
const MIME = 'text/html;profile=mcp-app';
const STAMP = 'ui://reads/stamp.html';
const BROKEN = 'ui://reads/broken.html';

let reads = 0;
let calls = 0;
const readers = new Set<() => void>();

const server = new McpServer({ name: 'reads', version: '1.0.0' });
server.registerResource('stamp', STAMP, { mimeType: MIME }, () => {
  reads++;
  for (const wake of readers) wake();
  return { contents: [{ uri: STAMP, mimeType: MIME, text: `<!doctype html><html><head></head><body>read ${reads}</body></html>` }] };
});
server.registerResource('broken', BROKEN, { mimeType: MIME }, () => {
  throw new Error('this view cannot be read');
});
server.registerTool('stamp', { description: 'Shows a view that changes at each read.', inputSchema: {}, _meta: { ui: { resourceUri: STAMP } } }, async () => {
  const call = ++calls;
  await readsReach(call);
  return { content: [{ type: 'text', text: `call ${call}` }], structuredContent: { call, readsAtResult: reads } };
});
server.registerTool('broken', { description: 'Shows a view that cannot be read.', inputSchema: {}, _meta: { ui: { resourceUri: BROKEN } } }, () => ({
  content: [{ type: 'text', text: 'broken called' }],
}));
server.registerTool('reads', { description: "How many reads of stamp's view were answered.", inputSchema: {} }, () => ({
  content: [{ type: 'text', text: String(reads) }],
}));

/** Until `count` reads were answered, or --wait-ms passed: a host that reads no view while a call runs is not waited on forever. */
function readsReach(count: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      readers.delete(check);
      clearTimeout(timer);
      resolve();
    };
    const check = (): void => void (reads >= count && done());
    const timer = setTimeout(done, waitMs);
    readers.add(check);
    check();
  });
}

void server.connect(new StdioServerTransport());
