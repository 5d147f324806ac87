/**
 * A small MCP server of the 2026-07-28 era for the host's tests, built on the official v2 server package
 * (@modelcontextprotocol/server 2.x), as a server author would build one today.
 * Flags:
 *   --modern-only     refuses 2025-11-25 (`legacy: 'reject'`): what the spec's stateless core allows a new server to do
 *                     (default: both eras, the SDK's dual mode)
 *   --http            streamable HTTP at http://127.0.0.1:<port>/mcp (createMcpHandler); prints `listening <port>`
 *                     (default: stdio, serveStdio)
 *   --port=N          with --http (default 0: a free port)
 *   --name=X          its serverInfo name
 *   --ttl=N           lists may be kept N ms (the 2026-07-28 `ttlMs` of tools/list; default the SDK's 0, "ask every time")
 *   --quiet-lists     declares no list_changed: a client learns of a new tool only by listing again when the ttl is up
 *   --record=FILE     appends `spawn` when it starts and the method of each message it reads (stdio), or
 *                     `<HTTP method> <Mcp-Method header>` of each request (HTTP)
 * Tools: echo; era (which era served the call); ask (a form question as `input_required`, or a 2025
 * elicitation/create through the SDK's shim); ask_as_task (the same with a 2025-11-25 `task` in it); sample (a sampling request the same way); roots; slow (progress
 * every 20 ms for `ms`); log (a log message at each level); hang (waits until cancelled; `cancelled` says how
 * often that happened); add_tool (a new tool, then tools/list_changed); touch (resources/updated for note://a);
 * url_needed (the -32042 "URL elicitation required" error); binary (a binary resource and audio).
 * Resources: note://a (text, subscribable); Prompts: greet.
 */
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  acceptedContent,
  createMcpHandler,
  inputRequired,
  inputResponse,
  McpServer,
  UrlElicitationRequiredError,
  type CallToolResult,
  type InputRequiredResult,
  type McpRequestContext,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

const flag = (name: string): string | undefined => {
  const hit = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return hit === undefined ? undefined : (hit.split('=').slice(1).join('=') ?? '');
};
const modernOnly = flag('modern-only') !== undefined;
const overHttp = flag('http') !== undefined;
const name = flag('name') || (modernOnly ? 'modern-only' : 'dual-era');
const ttl = flag('ttl');
const quietLists = flag('quiet-lists') !== undefined;

const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** Shared by every instance the factory builds (one per HTTP request): what a process-wide store would hold. */
const state = { cancelled: 0, extraTools: [] as string[] };
let notifyToolsChanged: () => void = () => undefined;
let notifyUpdated: (uri: string) => void = () => undefined;

function build({ era }: McpRequestContext): McpServer {
  const server = new McpServer(
    { name, version: '2.0.0' },
    {
      capabilities: { tools: { listChanged: !quietLists }, resources: { subscribe: true, listChanged: !quietLists }, prompts: {}, logging: {} },
      instructions: `${name} serves ${era}`,
      ...(ttl === undefined ? {} : { cacheHints: { 'tools/list': { ttlMs: Number(ttl) } } }),
    },
  );
  server.registerTool('echo', { description: 'Echoes its text', inputSchema: z.object({ text: z.string() }) }, ({ text: t }) => text(t));
  server.registerTool('era', { description: 'Which era served this call' }, () => text(era));
  server.registerTool('ask', { description: 'Asks the person for a colour', inputSchema: z.object({}) }, (_args, ctx): CallToolResult | InputRequiredResult => {
    const view = inputResponse(ctx.mcpReq.inputResponses, 'colour');
    if (view.kind === 'elicit' && view.action !== 'accept') return text(`the person said ${view.action}`);
    const answer = acceptedContent(ctx.mcpReq.inputResponses, 'colour', z.object({ colour: z.string() }));
    if (answer) return text(`colour: ${answer.colour}`);
    return inputRequired({
      inputRequests: {
        colour: inputRequired.elicit({
          message: 'Which colour?',
          requestedSchema: { type: 'object', properties: { colour: { type: 'string', title: 'Colour' } }, required: ['colour'] },
        }),
      },
    });
  });
  // The same question with a 2025-11-25 `task` slipped into it, which this era does not have: answered as a plain one.
  server.registerTool(
    'ask_as_task',
    { description: 'Asks for a colour, as a task', inputSchema: z.object({}) },
    (_args, ctx): CallToolResult | InputRequiredResult => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'colour', z.object({ colour: z.string() }));
      if (answer) return text(`colour: ${answer.colour}`);
      if (ctx.mcpReq.inputResponses?.colour) return text(`not an answer: ${JSON.stringify(ctx.mcpReq.inputResponses.colour)}`);
      const ask = inputRequired.elicit({
        message: 'Which colour?',
        requestedSchema: { type: 'object', properties: { colour: { type: 'string', title: 'Colour' } }, required: ['colour'] },
      });
      return inputRequired({ inputRequests: { colour: { ...ask, params: { ...ask.params, task: { ttl: 60_000 } } } as typeof ask } });
    },
  );
  server.registerTool(
    'sample',
    { description: 'Asks the client model a question', inputSchema: z.object({}) },
    (_args, ctx): CallToolResult | InputRequiredResult => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'answer');
      if (view.kind === 'sampling') {
        const block = Array.isArray(view.result.content) ? view.result.content[0] : view.result.content;
        return text(`model said: ${block?.type === 'text' ? block.text : '(no text)'}`);
      }
      return inputRequired({
        inputRequests: { answer: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 20 }) },
      });
    },
  );
  server.registerTool('roots', { description: 'Lists the client roots', inputSchema: z.object({}) }, (_args, ctx): CallToolResult | InputRequiredResult => {
    const view = inputResponse(ctx.mcpReq.inputResponses, 'roots');
    if (view.kind === 'roots') return text(JSON.stringify(view.roots.map((r) => r.uri)));
    return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
  });
  server.registerTool('slow', { description: 'Reports progress for ms', inputSchema: z.object({ ms: z.number() }) }, async ({ ms }, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    const steps = Math.max(1, Math.round(ms / 20));
    for (let i = 1; i <= steps; i++) {
      await sleep(20);
      if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
    }
    return text('slow done');
  });
  server.registerTool('log', { description: 'Logs at every level', inputSchema: z.object({}) }, async (_args, ctx) => {
    for (const level of ['debug', 'info', 'warning', 'error'] as const) await ctx.mcpReq.log(level, `${level} from ${name}`);
    return text('logged');
  });
  server.registerTool(
    'hang',
    { description: 'Waits until cancelled', inputSchema: z.object({}) },
    (_args, ctx) =>
      new Promise<CallToolResult>((resolve) => {
        ctx.mcpReq.signal.addEventListener('abort', () => {
          state.cancelled++;
          resolve(text('cancelled'));
        });
      }),
  );
  server.registerTool('cancelled', { description: 'How many calls were cancelled' }, () => text(String(state.cancelled)));
  server.registerTool('add_tool', { description: 'Adds a tool', inputSchema: z.object({ name: z.string() }) }, ({ name: added }) => {
    state.extraTools.push(added);
    // Over stdio the instance is pinned: its own list_changed reaches the client (2025) or the listen stream (2026).
    server.registerTool(added, { description: 'Added at run time' }, () => text(added));
    notifyToolsChanged();
    return text(`added ${added}`);
  });
  for (const added of state.extraTools) server.registerTool(added, { description: 'Added at run time' }, () => text(added));
  server.registerTool('touch', { description: 'Says note://a changed', inputSchema: z.object({}) }, async () => {
    notifyUpdated('note://a');
    if (!overHttp) await server.server.sendResourceUpdated({ uri: 'note://a' }).catch(() => undefined);
    return text('touched');
  });
  server.registerTool('url_needed', { description: 'Needs the person to visit a page first', inputSchema: z.object({}) }, () => {
    throw new UrlElicitationRequiredError([
      { mode: 'url', elicitationId: 'sign-up-1', url: 'https://example.com/sign-up', message: 'Sign up at example.com first' },
    ]);
  });
  server.registerTool('binary', { description: 'Returns a binary resource and audio', inputSchema: z.object({}) }, () => ({
    content: [
      { type: 'resource', resource: { uri: 'file:///report.pdf', mimeType: 'application/pdf', blob: Buffer.from('%PDF-1.4 fake').toString('base64') } },
      { type: 'resource', resource: { uri: 'file:///data.bin', mimeType: 'application/octet-stream', blob: Buffer.from([1, 2, 3, 4]).toString('base64') } },
      { type: 'audio', data: Buffer.from('RIFF').toString('base64'), mimeType: 'audio/wav' },
    ],
  }));
  server.registerResource('note', 'note://a', { description: 'A note', mimeType: 'text/plain' }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'note a' }],
  }));
  server.registerPrompt('greet', { description: 'Greets', argsSchema: z.object({ who: z.string() }) }, ({ who }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Hello ${who}` } }],
  }));
  return server;
}

const record = flag('record');
if (record) appendFileSync(record, 'spawn\n');

function seen(line: string): void {
  if (record) appendFileSync(record, `${line}\n`);
}

async function main(): Promise<void> {
  if (!overHttp) {
    if (record)
      process.stdin.on('data', (chunk: Buffer) => {
        for (const m of chunk.toString().matchAll(/"method":"([^"]+)"/g)) seen(m[1] as string);
      });
    serveStdio(build, { legacy: modernOnly ? 'reject' : 'serve' });
    return;
  }
  const handler = createMcpHandler(build, { legacy: modernOnly ? 'reject' : 'stateless' });
  notifyToolsChanged = () => handler.notify.toolsChanged();
  notifyUpdated = (uri) => handler.notify.resourceUpdated(uri);
  const node = toNodeHandler(handler);
  const http = createServer((req, res) => {
    seen(`${req.method} ${String(req.headers['mcp-method'] ?? '-')}`);
    void node(req, res);
  });
  http.listen(Number(flag('port') ?? 0), '127.0.0.1', () => {
    process.stdout.write(`listening ${(http.address() as AddressInfo).port}\n`);
  });
}

void main();
