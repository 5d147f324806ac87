/**
 * An MCP server with many tools (argv[2], default 10,000), listed 500 per page with nextCursor.
 * Tool `tool_<i>` answers "tool_<i>".
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

const count = Number(process.argv[2] ?? 10_000);
const PAGE = 500;
const tools: Tool[] = Array.from({ length: count }, (_, i) => ({
  name: `tool_${i}`,
  description: `Tool number ${i}`,
  inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
}));

const server = new Server({ name: 'many', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, (req) => {
  const start = Number(req.params?.cursor ?? 0);
  const next = start + PAGE;
  return { tools: tools.slice(start, next), nextCursor: next < count ? String(next) : undefined };
});
server.setRequestHandler(CallToolRequestSchema, (req) => ({ content: [{ type: 'text', text: req.params.name }] }));
process.stdin.on('end', () => process.exit(0));
void server.connect(new StdioServerTransport());
