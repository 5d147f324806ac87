/**
 * An MCP server with many tools (argv[2], default 10,000), listed 500 per page with nextCursor.
 * Tool `tool_<i>` answers "tool_<i>". Each has a description and parameters of the size real servers
 * give (about 90 tokens a definition, like GitHub's or Slack's), from a small vocabulary, so that what
 * a request costs and what a search finds are measured on something like a real catalogue: "tool 299"
 * or "archive invoices billing" find their tool.
 *
 * argv[3] (optional): that many more tools named `view_<i>`, for the server's app view only
 * (`_meta.ui.visibility: ["app"]`, MCP Apps), which the model must never be offered.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

const count = Number(process.argv[2] ?? 10_000);
const appOnly = Number(process.argv[3] ?? 0);
const PAGE = 500;
const VERBS = ['list', 'create', 'update', 'archive', 'export', 'merge', 'tag', 'summarise', 'approve', 'restore', 'assign'];
const NOUNS = ['invoices', 'contacts', 'tickets', 'orders', 'shipments', 'reports', 'campaigns', 'repositories', 'alerts'];
const AREAS = ['billing', 'crm', 'support', 'logistics', 'analytics', 'marketing', 'engineering'];

function catalogTool(i: number): Tool {
  const verb = VERBS[i % VERBS.length]!;
  const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length]!;
  const area = AREAS[i % AREAS.length]!;
  return {
    name: `tool_${i}`,
    description: `Tool number ${i}: ${verb} ${noun} in the ${area} service. Returns the ${noun} it touched as JSON, at most \`limit\` of them.`,
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', description: `The id of one of the ${noun}.` },
        limit: { type: 'integer', description: 'Most results to return (default 20).' },
      },
    },
  };
}

const tools: Tool[] = [
  ...Array.from({ length: count }, (_, i) => catalogTool(i)),
  ...Array.from({ length: appOnly }, (_, i) => ({
    name: `view_${i}`,
    description: `Called by the server's own view ${i}; the model should not call it.`,
    inputSchema: { type: 'object' as const },
    _meta: { ui: { visibility: ['app'] } },
  })),
];

const server = new Server({ name: 'many', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, (req) => {
  const start = Number(req.params?.cursor ?? 0);
  const next = start + PAGE;
  return { tools: tools.slice(start, next), nextCursor: next < tools.length ? String(next) : undefined };
});
server.setRequestHandler(CallToolRequestSchema, (req) => ({ content: [{ type: 'text', text: req.params.name }] }));
process.stdin.on('end', () => process.exit(0));
void server.connect(new StdioServerTransport());
