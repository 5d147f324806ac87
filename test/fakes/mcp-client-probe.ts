/**
 * A server that leans on the host's client side harder than server-everything does (one process, stdio):
 *   flood_sampling {count}     sends `count` sampling/createMessage requests at once; reports each outcome
 *   elicit {schema}            sends elicitation/create with `schema` as it is, malformed or not; reports the answer
 *   log_lines {count}          sends `count` notifications/message (levels cycling) and as many stderr lines
 *   pulse {uri, count, everyMs} sends notifications/resources/updated for `uri` while it is subscribed
 * Declares logging and resources.subscribe; `subscribed` reports the URIs subscribed to now.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type LoggingLevel,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

const server = new McpServer({ name: 'probe', version: '1.0.0' }, { capabilities: { logging: {}, resources: { subscribe: true } } });
const subscribed = new Set<string>();
const text = (t: string): { content: Array<{ type: 'text'; text: string }> } => ({ content: [{ type: 'text', text: t }] });
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const codeOf = (err: unknown): unknown => (err as { code?: unknown }).code;

server.registerResource('counter', 'probe://counter', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'n' }] }));
server.server.setRequestHandler(SubscribeRequestSchema, async (r) => {
  subscribed.add(r.params.uri);
  return {};
});
server.server.setRequestHandler(UnsubscribeRequestSchema, async (r) => {
  subscribed.delete(r.params.uri);
  return {};
});

server.registerTool('subscribed', { inputSchema: {} }, async () => text(JSON.stringify([...subscribed])));

server.registerTool('flood_sampling', { inputSchema: { count: z.number().int().min(1).max(1000) } }, async ({ count }, extra) => {
  const one = (i: number) =>
    extra
      .sendRequest(
        { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: `request ${i}` } }], maxTokens: 50 } },
        CreateMessageResultSchema,
        { timeout: 60_000 },
      )
      .then(
        (r) => ({ ok: true, text: r.content.type === 'text' ? r.content.text : r.content.type }),
        (err: unknown) => ({ ok: false, code: codeOf(err), text: messageOf(err) }),
      );
  const outcomes = await Promise.all(Array.from({ length: count }, (_, i) => one(i)));
  return text(JSON.stringify(outcomes));
});

server.registerTool(
  'elicit',
  { inputSchema: { schema: z.unknown().optional(), mode: z.enum(['form', 'url']).optional(), url: z.string().optional() } },
  async ({ schema, mode, url }, extra) => {
    const params =
      mode === 'url' ? { mode: 'url', message: 'Open this to sign in', url, elicitationId: 'e-1' } : { message: 'Fill this in', requestedSchema: schema };
    try {
      const r = await extra.sendRequest({ method: 'elicitation/create', params } as never, ElicitResultSchema, { timeout: 60_000 });
      return text(JSON.stringify(r));
    } catch (err) {
      return text(JSON.stringify({ error: messageOf(err), code: codeOf(err) }));
    }
  },
);

const LEVELS: LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error'];
server.registerTool('log_lines', { inputSchema: { count: z.number().int().min(1).max(100_000) } }, async ({ count }) => {
  for (let i = 0; i < count; i++) {
    await server.sendLoggingMessage({ level: LEVELS[i % LEVELS.length]!, logger: 'probe', data: `line ${i}` });
    process.stderr.write(`stderr ${i}\n`);
  }
  return text(`sent ${count}`);
});

server.registerTool(
  'pulse',
  { inputSchema: { uri: z.string(), count: z.number().int().min(1).max(10_000), everyMs: z.number().int().min(0).max(1000) } },
  async ({ uri, count, everyMs }) => {
    let sent = 0;
    for (let i = 0; i < count; i++) {
      if (subscribed.has(uri)) {
        await server.server.sendResourceUpdated({ uri });
        sent++;
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
    return text(`sent ${sent}`);
  },
);

void server.connect(new StdioServerTransport());
