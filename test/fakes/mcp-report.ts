/**
 * An MCP server (stdio) that reports how it was started: one tool, `report`, answering with its
 * arguments, working folder and environment as JSON. For the tests of user-configured servers: what
 * a config says must arrive exactly so (no shell in between, variables expanded once).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'report', version: '1.0.0' });

server.registerTool('report', { description: 'How this server was started: argv, cwd, env', annotations: { readOnlyHint: true } }, async () => ({
  content: [{ type: 'text', text: JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd(), env: process.env }) }],
}));

process.stdin.on('end', () => process.exit(0));
void server.connect(new StdioServerTransport());
