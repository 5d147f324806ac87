/**
 * A server that logs as fast as it can (one process, stdio), for the host's log sinks:
 *   flood {count}  writes `count` stderr lines in one write and sends `count` notifications/message
 *                  back to back without waiting for any (levels cycling debug, info, warning, error)
 *   burst {count}  writes `count` notifications/message to stdout in one write, as a server that ignores the
 *                  log level and back-pressure would (the SDK's own sends wait on 'drain' one by one, which
 *                  makes the fake, not the host, the slow end of a flood); levels cycle as in flood
 *   ping           answers "pong" (is the host still talking to it while the flood is read?)
 * Declares logging; the SDK drops messages below the level the client set (not those of burst).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

const server = new McpServer({ name: 'log-flood', version: '1.0.0' }, { capabilities: { logging: {} } });
const LEVELS: LoggingLevel[] = ['debug', 'info', 'warning', 'error'];
const text = (t: string): { content: Array<{ type: 'text'; text: string }> } => ({ content: [{ type: 'text', text: t }] });

server.registerTool('flood', { inputSchema: { count: z.number().int().min(1).max(100_000) } }, async ({ count }) => {
  process.stderr.write(Array.from({ length: count }, (_, i) => `stderr ${i}\n`).join(''));
  await Promise.all(
    Array.from({ length: count }, (_, i) => server.sendLoggingMessage({ level: LEVELS[i % LEVELS.length]!, logger: 'flood', data: `message ${i}` })),
  );
  return text(`sent ${count}`);
});

server.registerTool('burst', { inputSchema: { count: z.number().int().min(1).max(1_000_000) } }, async ({ count }) => {
  const line = (i: number): string =>
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: LEVELS[i % LEVELS.length], logger: 'burst', data: `message ${i}` } });
  process.stdout.write(`${Array.from({ length: count }, (_, i) => line(i)).join('\n')}\n`);
  return text(`sent ${count}`);
});

server.registerTool('ping', { inputSchema: {} }, async () => text('pong'));

void server.connect(new StdioServerTransport());
