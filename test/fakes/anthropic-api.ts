/**
 * A local fake of the Anthropic Messages API that the real SDK talks to through its base URL.
 * It streams real SSE (or answers JSON when `stream` is false), plays scripted replies, and can
 * answer with errors (401, 429 with retry-after, 529, a dropped connection) so retries and
 * error messages are exercised for real.
 *
 * Used in-process by node:test suites and the VS Code UI tests, and as a process:
 *   node out/test/fakes/anthropic-api.js <script.json>   (prints `listening <url>` on stdout)
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { FakePromptCache, promptTokenCount, type CacheUsage } from './fake-prompt-cache';
import { defaultModels, modelsPage, type FakeModel } from './fake-models';
import { blindCall, searchBlocks, toolSearchProblem, type SearchResult, type Searched, type ToolDefinition } from './fake-tool-search';
import { until } from '../support/until';
import { toolSchemaProblem } from './fake-tool-schemas';

export interface ToolUseStep {
  name: string;
  input?: Record<string, unknown>;
  /** Streamed as the input's JSON instead of `input`: may be broken or cut off, as a real stream's can be. */
  rawInput?: string;
  id?: string;
}

/**
 * The model searching its deferred tools with the server's tool search tool (the request must carry one):
 * the reply starts with its `server_tool_use` and `tool_search_tool_result`, and its tool calls may then
 * name what was found. `use: true` calls the first tool found (with `input`), as a model would.
 */
export interface ToolSearchStep {
  query: string;
  use?: boolean;
  input?: Record<string, unknown>;
}

/** `gate`: the reply is held until it settles (e.g. `api.waitForRequests(2)`: proves two requests were open at once). */
export type Reply =
  /** `thinking` comes first, as a thinking block with a signature the fake checks when it is sent back. */
  | {
      text: string;
      toolUses?: ToolUseStep[];
      chunk?: number;
      delayMs?: number;
      stopReason?: string;
      thinking?: string;
      gate?: Promise<unknown>;
      toolSearch?: ToolSearchStep;
    }
  /** With `stopReason: 'max_tokens'` (and a cut `rawInput`) it is a reply that ran out of tokens mid-call. */
  | { toolUses: ToolUseStep[]; text?: string; chunk?: number; delayMs?: number; stopReason?: string; gate?: Promise<unknown>; toolSearch?: ToolSearchStep }
  | { toolSearch: ToolSearchStep; text?: string; toolUses?: ToolUseStep[]; chunk?: number; delayMs?: number; stopReason?: string; gate?: Promise<unknown> }
  | { error: 401 | 400 | 429 | 500 | 529; message?: string; retryAfterMs?: number }
  | { drop: true }
  /** Sends message_start and then nothing: for Stop tests. */
  | { hang: true };

export interface RecordedRequest {
  body: MessagesBody;
  headers: IncomingMessage['headers'];
  /** How the fake's prompt cache billed the prompt (absent for error replies). */
  billed?: CacheUsage;
}

export interface MessagesBody {
  model: string;
  max_tokens: number;
  stream?: boolean;
  system?: string | Array<{ type: string; text: string; cache_control?: unknown }>;
  /** Client tools (`defer_loading`: found only by search) and server tools such as the tool search tool (`type`). */
  tools?: ToolDefinition[];
  messages: Array<{ role: 'user' | 'assistant'; content: string | Array<Record<string, unknown>> }>;
}

/** Decides the reply for one request: a queue of replies, or a function of the request. */
export type Script = Reply[] | ((body: MessagesBody, index: number) => Reply);

export class FakeAnthropicApi {
  readonly requests: RecordedRequest[] = [];
  /**
   * When set, a request whose prompt is longer (estimated as the real API's tokenizer roughly
   * does, 4 characters a token) is refused with the API's 400 "prompt is too long".
   */
  promptTokenLimit: number | undefined;
  /** Honours `cache_control` and bills reads and writes in each reply's usage. */
  readonly cache = new FakePromptCache();
  /** Served by `GET /v1/models`; a request over its model's `max_input_tokens` gets the API's 400. */
  models: FakeModel[] = defaultModels();
  /** How many `count_tokens` requests arrived. */
  countTokenRequests = 0;
  private server: Server | undefined;
  private script: Script;
  private openResponses = new Set<ServerResponse>();
  /** Emits 'change' when a request arrives or a response is aborted: what the waits below wake on. */
  private readonly changes = new EventEmitter();
  /** Responses whose connection closed before the reply was complete (the client aborted), in all. */
  abortedResponses = 0;

  constructor(script: Script = []) {
    this.script = script;
  }

  setScript(script: Script): void {
    this.script = script;
  }

  async start(port = 0): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    // Node closes an idle kept-alive socket after 5 s, and a client that reuses it just then gets a reset: on a
    // loaded machine a tool round can take about that long between two requests. The SDK would retry, but tests
    // set maxRetries 0 to see every request, so the fake keeps idle sockets until it stops.
    this.server.keepAliveTimeout = 0;
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    return this.url;
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo | null;
    if (!address) throw new Error('fake API not started');
    return `http://127.0.0.1:${address.port}`;
  }

  async stop(): Promise<void> {
    for (const res of this.openResponses) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Resolves once `count` requests in all have arrived (events, not sleeps, for tests to wait on); fails after 60 s (scaled). */
  async waitForRequests(count: number): Promise<void> {
    const seen = (): string => `${this.requests.length} request(s)`;
    await until(() => this.requests.length >= count, { what: `${count} request(s) to the fake API`, timeoutMs: 60_000, wake: this.onChange, seen });
  }

  /** Resolves once `count` responses in all were closed by the client before they were complete; fails after 60 s (scaled). */
  async waitForAborts(count: number): Promise<void> {
    const seen = (): string => `${this.abortedResponses} aborted`;
    await until(() => this.abortedResponses >= count, { what: `${count} response(s) aborted by the client`, timeoutMs: 60_000, wake: this.onChange, seen });
  }

  private readonly onChange = (check: () => void): (() => void) => {
    this.changes.on('change', check);
    return () => void this.changes.off('change', check);
  };

  private nextReply(body: MessagesBody): Reply {
    const index = this.requests.length - 1;
    if (typeof this.script === 'function') return this.script(body, index);
    return this.script.shift() ?? { text: 'The fake API has no scripted reply left.' };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method === 'GET' && url.pathname.startsWith('/v1/models')) return this.serveModels(url, res);
    if (req.method !== 'POST' || !url.pathname.startsWith('/v1/messages')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `no route ${req.url}` } }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as MessagesBody;
    const window = this.models.find((m) => m.id === body.model)?.max_input_tokens ?? undefined;
    if (url.pathname === '/v1/messages/count_tokens') {
      this.countTokenRequests++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: promptTokenCount(body) }));
      return;
    }
    this.requests.push({ body, headers: req.headers });
    this.changes.emit('change');
    const tokens = estimateTokens(body);
    if (this.promptTokenLimit !== undefined && tokens > this.promptTokenLimit) {
      return sendError(res, { error: 400, message: `prompt is too long: ${tokens} tokens > ${this.promptTokenLimit} maximum` });
    }
    const unsigned = body.messages.some(
      (m) =>
        m.role === 'assistant' && Array.isArray(m.content) && m.content.some((b) => b.type === 'thinking' && b.signature !== signatureOf(String(b.thinking))),
    );
    if (unsigned) return sendError(res, { error: 400, message: 'messages: thinking blocks must be passed back unchanged, with their signature' });
    const refused = toolSearchProblem(body) ?? toolSchemaProblem(body.tools);
    if (refused) return sendError(res, { error: 400, message: refused });
    const counted = promptTokenCount(body);
    if (window !== undefined && counted > window) {
      return sendError(res, { error: 400, message: `prompt is too long: ${counted} tokens > ${window} maximum` });
    }
    const reply = this.nextReply(body);
    this.openResponses.add(res);
    res.on('close', () => {
      this.openResponses.delete(res);
      if (res.writableFinished) return;
      this.abortedResponses += 1;
      this.changes.emit('change');
    });
    if ('error' in reply) return sendError(res, reply);
    if ('drop' in reply) {
      req.socket.destroy();
      return;
    }
    if ('gate' in reply && reply.gate) await reply.gate;
    const searched = 'toolSearch' in reply && reply.toolSearch ? searchBlocks(body, reply.toolSearch) : undefined;
    if (searched && 'error' in searched) return sendError(res, { error: 500, message: searched.error });
    const blind = 'hang' in reply ? undefined : unseenCall(body, reply, searched);
    if (blind) return sendError(res, { error: 500, message: blind });
    const billed = 'hang' in reply ? undefined : this.cache.bill(body);
    this.requests[this.requests.length - 1]!.billed = billed;
    const message = buildMessage(body.model, reply, billed, searched);
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...message, content: message.content.map(({ rawInput: _raw, ...block }) => block) }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    await streamMessage(res, message, reply);
  }

  private serveModels(url: URL, res: ServerResponse): void {
    const id = decodeURIComponent(url.pathname.slice('/v1/models'.length).replace(/^\//, ''));
    const found = id ? this.models.find((m) => m.id === id) : undefined;
    if (id && !found) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `model: ${id}` } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(found ?? modelsPage(this.models, url.searchParams)));
  }
}

function estimateTokens(body: MessagesBody): number {
  // Deferred tools are not in the prompt until a reference loads them (fake-tool-search.ts).
  return Math.ceil(JSON.stringify([body.system, body.tools?.filter((t) => !t.defer_loading), body.messages]).length / 4);
}

function sendError(res: ServerResponse, reply: Extract<Reply, { error: number }>): void {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    429: 'rate_limit_error',
    500: 'api_error',
    529: 'overloaded_error',
  };
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-should-retry': 'true' };
  if (reply.error === 401 || reply.error === 400) headers['x-should-retry'] = 'false';
  if (reply.retryAfterMs !== undefined) headers['retry-after-ms'] = String(reply.retryAfterMs);
  res.writeHead(reply.error, headers);
  const message = reply.message ?? `fake ${types[reply.error]}`;
  res.end(JSON.stringify({ type: 'error', error: { type: types[reply.error], message } }));
}

interface Block {
  type: 'text' | 'tool_use' | 'thinking' | 'server_tool_use' | 'tool_search_tool_result';
  thinking?: string;
  signature?: string;
  text?: string;
  id?: string;
  name?: string;
  input?: Record<string, unknown>;
  rawInput?: string;
  caller?: { type: 'direct' };
  tool_use_id?: string;
  content?: SearchResult;
}

let toolUseCounter = 0;

/** The calls a reply makes: its scripted ones, and with `toolSearch.use` the first tool its search found. */
function callsOf(reply: Exclude<Reply, { error: number } | { drop: true } | { hang: true }>, searched: Searched | undefined): ToolUseStep[] {
  const found = searched?.found[0];
  const use = 'toolSearch' in reply && reply.toolSearch?.use && found ? [{ name: found, input: reply.toolSearch.input ?? {} }] : [];
  return [...(reply.toolUses ?? []), ...use];
}

function unseenCall(
  body: MessagesBody,
  reply: Exclude<Reply, { error: number } | { drop: true } | { hang: true }>,
  searched: Searched | undefined,
): string | undefined {
  return blindCall(
    body,
    callsOf(reply, searched).map((u) => u.name),
    searched?.found ?? [],
  );
}

function buildMessage(model: string, reply: Exclude<Reply, { error: number } | { drop: true }>, billed?: CacheUsage, searched?: Searched) {
  const content: Block[] = [];
  if ('hang' in reply)
    return { id: 'msg_hang', type: 'message', role: 'assistant', model, content, stop_reason: null, usage: { input_tokens: 10, output_tokens: 0 } };
  if ('thinking' in reply && reply.thinking) content.push({ type: 'thinking', thinking: reply.thinking, signature: signatureOf(reply.thinking) });
  content.push(...(searched?.blocks ?? []));
  if (reply.text) content.push({ type: 'text', text: reply.text });
  const calls = callsOf(reply, searched);
  for (const use of calls) {
    content.push({ type: 'tool_use', id: use.id ?? `toolu_fake_${++toolUseCounter}`, name: use.name, input: use.input ?? {}, rawInput: use.rawInput });
  }
  const stopReason = reply.stopReason ?? (calls.length ? 'tool_use' : 'end_turn');
  return {
    id: `msg_fake_${Date.now().toString(36)}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { ...(billed ?? { input_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }), output_tokens: outputTokens(content) },
  };
}

/** The fake's signature of a thinking text: a request that changed the text (or dropped the signature) is refused, as the real API does. */
export function signatureOf(thinking: string): string {
  return `fake-sig-${createHash('sha256').update(thinking).digest('hex').slice(0, 16)}`;
}

/** What the reply's content would cost to generate, counted the way the fake counts prompts. */
function outputTokens(content: Block[]): number {
  return Math.max(
    1,
    content.reduce((n, b) => n + Math.ceil((b.text ?? b.thinking ?? b.rawInput ?? JSON.stringify(b.input ?? {})).length / 4), 0),
  );
}

function send(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

async function streamMessage(
  res: ServerResponse,
  message: ReturnType<typeof buildMessage>,
  reply: Exclude<Reply, { error: number } | { drop: true }>,
): Promise<void> {
  send(res, 'message_start', {
    type: 'message_start',
    message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } },
  });
  if ('hang' in reply) return; // the response stays open until the client aborts or the server stops
  const chunk = reply.chunk ?? 8;
  const delayMs = reply.delayMs ?? 0;
  for (const [index, block] of message.content.entries()) {
    if (res.destroyed) return;
    if (block.type === 'thinking') {
      send(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      send(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: block.thinking } });
      send(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } });
    } else if (block.type === 'text') {
      send(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      for (let i = 0; i < block.text!.length; i += chunk) {
        send(res, 'content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'text_delta', text: block.text!.slice(i, i + chunk) },
        });
        if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      }
    } else if (block.type === 'tool_search_tool_result') {
      // A server tool's result comes whole in its start event.
      send(res, 'content_block_start', { type: 'content_block_start', index, content_block: block });
    } else {
      const start =
        block.type === 'server_tool_use'
          ? { type: block.type, id: block.id, name: block.name, input: {}, caller: block.caller }
          : { type: 'tool_use', id: block.id, name: block.name, input: {} };
      send(res, 'content_block_start', { type: 'content_block_start', index, content_block: start });
      const json = block.rawInput ?? JSON.stringify(block.input);
      for (let i = 0; i < json.length; i += 16) {
        send(res, 'content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: json.slice(i, i + 16) },
        });
      }
    }
    send(res, 'content_block_stop', { type: 'content_block_stop', index });
  }
  send(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: message.usage.output_tokens },
  });
  send(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

/** The text of the last user message, or of the tool results it carries. */
export function lastUserText(body: MessagesBody): string {
  const last = body.messages[body.messages.length - 1];
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content
    .map((b) => {
      if (b.type === 'text') return String(b.text);
      if (b.type === 'tool_result') {
        const c = b.content;
        if (typeof c === 'string') return c;
        if (Array.isArray(c)) return c.map((x: { text?: string }) => x.text ?? '').join('\n');
      }
      return '';
    })
    .join('\n');
}

/** The system prompt as one string, whether it was sent as a string or as blocks. */
export function systemText(body: MessagesBody): string {
  return typeof body.system === 'string' ? body.system : (body.system ?? []).map((b) => b.text).join('\n');
}

/** The messages as the conversation holds them: without the request's cache breakpoints. */
export function unmarked(messages: MessagesBody['messages']): MessagesBody['messages'] {
  return messages.map((m) => (typeof m.content === 'string' ? m : { ...m, content: m.content.map(({ cache_control: _c, ...b }) => b) }));
}

/** True when the last message carries tool results (the model is being asked to go on). */
export function isToolResultTurn(body: MessagesBody): boolean {
  const last = body.messages[body.messages.length - 1];
  return Array.isArray(last?.content) && last.content.some((b) => b.type === 'tool_result');
}

// Bundled into test files too, so check the script name rather than require.main.
if (/anthropic-api\.js$/.test(process.argv[1] ?? '')) {
  const scriptFile = process.argv[2];
  const script: Reply[] = scriptFile ? (JSON.parse(readFileSync(scriptFile, 'utf8')) as Reply[]) : [];
  const api = new FakeAnthropicApi(script);
  void api.start(Number(process.env.PORT ?? 0)).then((url) => process.stdout.write(`listening ${url}\n`));
}
