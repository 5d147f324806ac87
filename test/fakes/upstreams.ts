/**
 * Fake upstreams for the web and research servers, on 127.0.0.1, started in-process by the tests:
 * web pages (HTML, JSON, text, binary, long, gzip bomb, slow drip, endless body, redirects, errors),
 * the arXiv Atom API (including hostile DTD feeds), Brave Search, wttr.in and ESPN scoreboards.
 */
import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { arxivEntry, arxivFeed, BILLION_LAUGHS_FEED, XXE_FEED } from './upstreams-arxiv.js';
import { BRAVE_RESULTS, ESPN_F1, ESPN_GOLF, ESPN_NBA, ESPN_TENNIS, WTTR_LONDON } from './upstreams-apis.js';
import { hostilePage } from './upstreams-html.js';

export interface Upstreams {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** 127.0.0.1:<port>, the form MCP_AGENT_FETCH_ALLOW takes. */
  hostPort: string;
  /** Paths asked for, in order. */
  requests: { path: string; headers: IncomingMessage['headers'] }[];
  /**
   * Emits 'request' with the path (and query) of every request, 'closed' with it when a
   * streaming (drip/endless) response's connection closes, and 'sent' with it when a hostile HTML
   * page (upstreams-html.ts) has been sent whole. A hostile page asked for with `?hold` is sent but
   * for its last bytes, which follow when the test emits 'release' with the same path: the server
   * can't start converting before then, so a test knows when it starts.
   */
  events: EventEmitter;
  close(): Promise<void>;
}

export const LONG_TEXT_LENGTH = 45_000;

/** A long text whose every 1000-character block starts with its block number, to check paging. */
export function longText(): string {
  let out = '';
  for (let i = 0; out.length < LONG_TEXT_LENGTH; i++) out += `[block ${i}]`.padEnd(1000, '.');
  return out.slice(0, LONG_TEXT_LENGTH);
}

const PAGE = `<!doctype html>
<html><head><title>Fake &amp; Friendly Page</title><style>body{color:red}</style>
<script>window.secret = "SCRIPT-CONTENT"</script></head>
<body><nav><a href="/home">NAV-CONTENT</a></nav>
<h1>Main heading</h1>
<p>Hello <strong>world</strong>, see <a href="/docs/page2">the docs</a>.</p>
<ul><li>first</li><li>second</li></ul>
<img src="/pic.png" alt="a cat">
<footer>FOOTER-CONTENT</footer></body></html>`;

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, ...headers });
  res.end(body);
}

function stream(req: IncomingMessage, res: ServerResponse, events: EventEmitter, everyMs: number, chunk: string): void {
  res.writeHead(200, { 'content-type': 'text/plain' });
  const timer = setInterval(() => res.write(chunk), everyMs);
  res.on('close', () => {
    clearInterval(timer);
    events.emit('closed', req.url);
  });
}

function web(req: IncomingMessage, res: ServerResponse, url: URL, events: EventEmitter): boolean {
  const hostile = hostilePage(url.pathname);
  if (hostile) {
    res.on('finish', () => events.emit('sent', req.url));
    if (!url.searchParams.has('hold')) {
      send(res, 200, hostile.type, hostile.body);
      return true;
    }
    const body = Buffer.from(hostile.body);
    res.writeHead(200, { 'content-type': hostile.type, 'content-length': String(body.length) });
    res.write(body.subarray(0, body.length - 16));
    const release = (path: string): void => {
      if (path !== req.url) return;
      events.off('release', release);
      res.end(body.subarray(body.length - 16));
    };
    events.on('release', release);
    return true;
  }
  switch (url.pathname) {
    case '/page':
      send(res, 200, 'text/html; charset=utf-8', PAGE);
      return true;
    case '/docs/page2':
      send(res, 200, 'text/html', '<html><head><title>Page two</title></head><body><p>Second page body</p></body></html>');
      return true;
    case '/data.json':
      send(res, 200, 'application/json', '{"name":"fake","items":[1,2,3],"nested":{"ok":true}}');
      return true;
    case '/plain.txt':
      send(res, 200, 'text/plain; charset=utf-8', 'just some plain text\nline two');
      return true;
    case '/long.txt':
      send(res, 200, 'text/plain', longText());
      return true;
    case '/image.png':
      send(res, 200, 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
      return true;
    case '/sneaky-binary':
      send(res, 200, 'text/plain', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 0, 1, 2, 3]));
      return true;
    case '/empty':
      send(res, 200, 'text/plain', '');
      return true;
    case '/gzip-bomb':
      send(res, 200, 'text/plain', gzipSync(Buffer.alloc(20 * 1024 * 1024, 'a')), { 'content-encoding': 'gzip' });
      return true;
    case '/gzip-page':
      send(res, 200, 'text/plain', gzipSync('compressed hello'), { 'content-encoding': 'gzip' });
      return true;
    case '/drip':
      stream(req, res, events, 200, '.');
      return true;
    case '/silent':
      // Takes the request and never answers, not even the status line.
      res.on('close', () => events.emit('closed', req.url));
      return true;
    case '/endless':
      stream(req, res, events, 1, 'x'.repeat(16 * 1024));
      return true;
    case '/redirect':
      send(res, 302, 'text/plain', '', { location: url.searchParams.get('to') ?? '/page' });
      return true;
    case '/loop':
      send(res, 302, 'text/plain', '', { location: '/loop' });
      return true;
    case '/host-echo':
      send(res, 200, 'text/plain', `host=${req.headers.host}`);
      return true;
  }
  const status = /^\/status\/(\d{3})$/.exec(url.pathname);
  if (status) {
    const code = Number(status[1]);
    send(res, code, 'text/html', `<html><body><h1>Error ${code}</h1><p>fake error page</p></body></html>`);
    return true;
  }
  return false;
}

function arxiv(res: ServerResponse, url: URL): void {
  const query = url.searchParams.get('search_query') ?? '';
  const max = Number(url.searchParams.get('max_results') ?? '10');
  if (query.includes('xxe')) return send(res, 200, 'application/atom+xml', XXE_FEED);
  if (query.includes('laughs')) return send(res, 200, 'application/atom+xml', BILLION_LAUGHS_FEED);
  if (query.includes('nothing')) return send(res, 200, 'application/atom+xml', arxivFeed([]));
  if (query.includes('broken')) return send(res, 200, 'application/atom+xml', '<feed><entry><title>unclosed');
  if (query.includes('outage')) return send(res, 503, 'text/plain', 'arXiv is down');
  const topic = query.replace(/^all:/, '');
  const entries = Array.from({ length: Math.min(max, 3) }, (_, i) => arxivEntry(topic, i));
  // "slow": answers after 1.3 s, long enough for the server's once-a-second progress.
  const delay = query.includes('slow') ? 1300 : 0;
  setTimeout(() => send(res, 200, 'application/atom+xml', arxivFeed(entries)), delay);
}

function brave(req: IncomingMessage, res: ServerResponse, url: URL): void {
  const key = req.headers['x-subscription-token'];
  const q = url.searchParams.get('q') ?? '';
  // "redirect:<url>" sends the search on to <url>, on this server or another.
  if (q.startsWith('redirect:')) return send(res, 302, 'text/plain', '', { location: q.slice('redirect:'.length) });
  if (key !== 'good-key') return send(res, 401, 'application/json', '{"type":"ErrorResponse","error":{"code":"SUBSCRIPTION_TOKEN_INVALID"}}');
  if (q === 'ratelimit') return send(res, 429, 'application/json', '{}', { 'retry-after': '7' });
  if (q === 'boom') return send(res, 503, 'application/json', '{}');
  if (q === 'nothing') return send(res, 200, 'application/json', '{"web":{"results":[]}}');
  send(res, 200, 'application/json', JSON.stringify(BRAVE_RESULTS));
}

function weather(res: ServerResponse, url: URL): void {
  const city = decodeURIComponent(url.pathname.slice('/weather/'.length));
  if (url.searchParams.get('format') !== 'j1') return send(res, 400, 'text/plain', 'want format=j1');
  if (city.toLowerCase() === 'nowhere') return send(res, 404, 'text/plain', 'Unknown location');
  send(res, 200, 'application/json', JSON.stringify(WTTR_LONDON));
}

function espn(res: ServerResponse, url: URL): void {
  const boards: Record<string, unknown> = {
    '/espn/basketball/nba/scoreboard': ESPN_NBA,
    '/espn/racing/f1/scoreboard': ESPN_F1,
    '/espn/golf/pga/scoreboard': ESPN_GOLF,
    '/espn/tennis/atp/scoreboard': ESPN_TENNIS,
    '/espn/hockey/nhl/scoreboard': { events: [{ name: 'Partial', competitions: [{}] }, null, {}] },
  };
  if (url.pathname === '/espn/baseball/mlb/scoreboard') return send(res, 500, 'text/plain', 'oops');
  send(res, 200, 'application/json', JSON.stringify(boards[url.pathname] ?? { events: [] }));
}

export async function startUpstreams(): Promise<Upstreams> {
  const events = new EventEmitter();
  const requests: Upstreams['requests'] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push({ path: `${url.pathname}${url.search}`, headers: req.headers });
    events.emit('request', req.url);
    if (web(req, res, url, events)) return;
    if (url.pathname === '/arxiv/query') return arxiv(res, url);
    if (url.pathname === '/brave/search') return brave(req, res, url);
    if (url.pathname.startsWith('/weather/')) return weather(res, url);
    if (url.pathname.startsWith('/espn/')) return espn(res, url);
    send(res, 404, 'text/plain', 'not found');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    requests,
    events,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A server that only counts connections: proof that a refused URL never reached it. */
export async function startTripwire(): Promise<{ port: number; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server = createServer((_req, res) => res.end('tripwire'));
  server.on('connection', () => hits++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    hits: () => hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
