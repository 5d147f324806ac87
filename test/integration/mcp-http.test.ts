// Servers over HTTP through the hub: the official server-everything over stdio, streamable HTTP and SSE,
// and our own HTTP fake (test/fakes/mcp-http.ts) for headers, the HTTP+SSE fallback, dropped streams,
// forgotten sessions and URLs that answer nothing. Real processes, real sockets.
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FAILURE_META_KEY, type McpHub, type HubOptions } from '../../src/core/mcp/hub/hub';
import type { ServerConfig } from '../../src/core/mcp/types';
import { freePort, startEverything, startHttpFake, type HttpServerProcess } from './helpers/http-server-process';
import { textOf, waitForStatus, withHub as hubFor } from './mcp-support';
import { outsideServer } from '../support/outside-servers';
import { scaled } from '../support/until';

const T = { timeout: scaled(40_000) };
const withHub = (configs: ServerConfig[], body: (hub: McpHub) => Promise<void>, options: HubOptions = FAST): Promise<void> => hubFor(configs, options, body);

const FAST: HubOptions = {
  connection: {
    closeGraceMs: 200,
    initializeTimeoutMs: 15_000,
    reconnection: { initialReconnectionDelay: 20, maxReconnectionDelay: 100, reconnectionDelayGrowFactor: 2, maxRetries: 2 },
  },
  restart: { baseDelayMs: 10, maxDelayMs: 50, maxRestarts: 2, windowMs: 60_000 },
  changeDebounceMs: 5,
};

const running: HttpServerProcess[] = [];
async function serve(start: Promise<HttpServerProcess>): Promise<HttpServerProcess> {
  const p = await start;
  running.push(p);
  return p;
}

const http = (name: string, url: string, extra: Partial<ServerConfig> = {}): ServerConfig => ({ name, transport: 'http', url, ...extra }) as ServerConfig;
const failureOf = (r: { _meta?: Record<string, unknown> }): unknown => r._meta?.[FAILURE_META_KEY];

interface Seen {
  method: string;
  path: string;
  lastEventId?: string;
  rpc?: string;
}

describe('MCP servers over HTTP', () => {
  after(async () => {
    await Promise.all(running.map((p) => p.stop()));
  });

  test('server-everything over stdio, streamable HTTP and SSE: tools, a call, a resource, a prompt', T, async () => {
    const streamable = await serve(startEverything('streamableHttp'));
    const sse = await serve(startEverything('sse'));
    const everything = outsideServer('server-everything');
    const configs: ServerConfig[] = [
      { name: 'stdio', transport: 'stdio', command: process.execPath, args: [everything, 'stdio'] },
      http('streamable', streamable.url),
      { name: 'sse', transport: 'sse', url: sse.url },
    ];
    await withHub(configs, async (hub) => {
      await hub.settled();
      const kinds: Record<string, string | undefined> = {};
      for (const name of ['stdio', 'streamable', 'sse']) {
        const s = hub.status(name);
        assert.equal(s?.state, 'ready', `${name}: ${s?.error}`);
        kinds[name] = s?.transport;
        assert.ok(
          s?.tools.some((t) => t.name === 'echo'),
          name,
        );
        assert.equal(textOf(await hub.callTool(`${name}__echo`, { message: `hi ${name}` })), `Echo: hi ${name}`);
        const resource = s?.resources[0];
        assert.ok(resource, `${name} lists resources`);
        const read = await hub.readResource(name, resource.uri);
        assert.equal(read.contents[0]?.uri, resource.uri);
        const prompt = await hub.getPrompt(name, 'simple-prompt');
        assert.deepEqual(prompt.messages[0]?.content, { type: 'text', text: 'This is a simple prompt without arguments.' });
      }
      assert.deepEqual(kinds, { stdio: 'stdio', streamable: 'streamable-http', sse: 'sse' });
    });
  });

  test('custom headers are sent; without them the 401 is shown with the URL, never its credentials', T, async () => {
    const fake = await serve(startHttpFake('--header=X-Api-Key:s3cret'));
    const port = fake.port;
    const configs = [
      http('keyed', fake.url, { headers: { 'X-Api-Key': 's3cret' } }),
      http('nokey', `http://someone:pa55word@127.0.0.1:${port}/mcp?api_key=leaked`),
    ];
    await withHub(configs, async (hub) => {
      await hub.settled();
      assert.equal(hub.status('keyed')?.state, 'ready', hub.status('keyed')?.error);
      assert.equal(textOf(await hub.callTool('keyed__echo', { text: 'with key' })), 'with key');
      const nokey = hub.status('nokey');
      assert.equal(nokey?.state, 'error');
      assert.match(
        nokey?.error ?? '',
        new RegExp(
          `server nokey: POST to http://127\\.0\\.0\\.1:${port}/mcp\\?api_key=… answered HTTP 401: missing header X-Api-Key; it asks for authorization`,
        ),
      );
      assert.doesNotMatch(nokey?.error ?? '', /pa55word|someone|leaked/);
    });
  });

  test('an http server that answers the POST with 4xx is reached over HTTP+SSE instead', T, async () => {
    const legacy = await serve(startHttpFake('--legacy'));
    await withHub([http('old', legacy.url)], async (hub) => {
      await hub.settled();
      const s = hub.status('old');
      assert.equal(s?.state, 'ready', s?.error);
      assert.equal(s?.transport, 'sse');
      assert.equal(s?.serverVersion, 'http-legacy 1.0.0');
      assert.equal(textOf(await hub.callTool('old__echo', { text: 'over sse' })), 'over sse');
      const seen = JSON.parse(textOf(await hub.callTool('old__requests'))) as Seen[];
      // The era asked first (server/discover, refused like initialize), then initialize, then HTTP+SSE.
      assert.deepEqual(
        seen.slice(0, 4).map((r) => `${r.method} ${r.path}`),
        ['POST /mcp', 'POST /mcp', 'GET /mcp', 'POST /messages'],
      );
    });
  });

  test('when neither transport works, the error names both', T, async () => {
    const fake = await serve(startHttpFake('--legacy'));
    // The legacy fake answers 405 to POST /mcp, and 405 to a GET anywhere but /mcp: both attempts fail.
    await withHub([http('neither', `http://127.0.0.1:${fake.port}/other`)], async (hub) => {
      const s = await waitForStatus(hub, 'neither', (x) => x.state === 'error');
      assert.match(s.error ?? '', /streamable HTTP: POST to http:\/\/127\.0\.0\.1:\d+\/other answered HTTP 405[^]*; then HTTP\+SSE: [^]*405/);
    });
  });

  test("a stream dropped before the answer is resumed with Last-Event-ID after the server's retry", T, async () => {
    const fake = await serve(startHttpFake('--resumable', '--retry=50'));
    await withHub(
      [http('resumable', fake.url)],
      async (hub) => {
        await hub.settled();
        const started = Date.now();
        const result = await hub.callTool('resumable__drop', {}, { timeoutMs: 30_000 });
        assert.equal(textOf(result), 'answered after the stream was resumed');
        assert.ok(Date.now() - started < 20_000, 'resumed long before our own 25 s reconnection delay');
        const seen = JSON.parse(textOf(await hub.callTool('resumable__requests'))) as Seen[];
        const resumed = seen.filter((r) => r.method === 'GET' && r.lastEventId);
        assert.ok(resumed.length >= 1, JSON.stringify(seen));
        // Our own first retry would come after 25 s: coming back within the call's 30 s timeout at all shows the server's 50 ms `retry` was taken.
      },
      {
        ...FAST,
        connection: {
          ...FAST.connection,
          reconnection: { initialReconnectionDelay: 25_000, maxReconnectionDelay: 25_000, reconnectionDelayGrowFactor: 1, maxRetries: 2 },
        },
      },
    );
  });

  test('a stream cut off with no way to resume fails its call at once, and the session goes on', T, async () => {
    const fake = await serve(startHttpFake());
    await withHub([http('cut', fake.url)], async (hub) => {
      await hub.settled();
      // 60 s would be the wait without the host noticing; "at once" is proven by finishing within the test's bound.
      const result = await hub.callTool('cut__drop', {}, { timeoutMs: 60_000 });
      assert.equal(result.isError, true);
      assert.equal(failureOf(result), 'protocol', textOf(result));
      assert.match(
        textOf(result),
        /tool "drop" on server cut failed: http:\/\/127\.0\.0\.1:\d+\/mcp ended the response stream before answering, and offered no way to resume it/,
      );
      assert.equal(textOf(await hub.callTool('cut__echo', { text: 'still here' })), 'still here');
    });
  });

  test('an HTTP+SSE event stream that drops ends the session: the call fails at once, and a new session is made', T, async () => {
    const legacy = await serve(startHttpFake('--legacy'));
    await withHub([{ name: 'old', transport: 'sse', url: legacy.url }], async (hub) => {
      await hub.settled();
      const result = await hub.callTool('old__drop', {}, { timeoutMs: 60_000 });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /server old: the event stream from http:\/\/127\.0\.0\.1:\d+\/mcp dropped/);
      await waitForStatus(hub, 'old', (s) => s.state === 'ready' && s.restarts === 1);
      assert.equal(textOf(await hub.callTool('old__echo', { text: 'new session' })), 'new session');
    });
  });

  test('a session the server forgot (404) is reconnected: a new initialize, and calls work again', T, async () => {
    const fake = await serve(startHttpFake());
    await withHub([http('forgetful', fake.url)], async (hub) => {
      await hub.settled();
      assert.equal(textOf(await hub.callTool('forgetful__forget')), 'forgotten');
      const lost = await hub.callTool('forgetful__echo', { text: 'x' });
      assert.equal(lost.isError, true);
      assert.match(textOf(lost), /no longer knows this session \(HTTP 404\)/);
      const back = await waitForStatus(hub, 'forgetful', (s) => s.state === 'ready' && s.restarts === 1);
      assert.equal(back.error, undefined);
      assert.equal(textOf(await hub.callTool('forgetful__echo', { text: 'again' })), 'again');
      const seen = JSON.parse(textOf(await hub.callTool('forgetful__requests'))) as Seen[];
      assert.equal(seen.filter((r) => r.rpc === 'initialize').length, 2);
    });
  });

  test('a server that goes away is reconnected with backoff, then given up on, saying why', T, async () => {
    const fake = await serve(startHttpFake());
    await withHub([http('fleeting', fake.url)], async (hub) => {
      await hub.settled();
      const details: string[] = [];
      hub.on('change', () => {
        const d = hub.status('fleeting')?.detail;
        if (d) details.push(d);
      });
      await fake.stop();
      const call = await hub.callTool('fleeting__echo', { text: 'anyone?' });
      assert.equal(call.isError, true);
      assert.match(textOf(call), /could not reach http:\/\/127\.0\.0\.1:\d+\/mcp: connection refused/);
      const s = await waitForStatus(hub, 'fleeting', (x) => x.state === 'error' && /Gave up/.test(x.error ?? ''));
      assert.match(s.error ?? '', /server fleeting: could not reach http:\/\/127\.0\.0\.1:\d+\/mcp: connection refused[^]*Gave up after 2 restarts/);
      assert.ok(
        details.some((d) => /reconnecting in 0\.01 s \(restart 1 of 2\)/.test(d)),
        details.join('\n'),
      );
    });
  });

  test('a URL where nothing listens is an error at once, saying so, and is not retried', T, async () => {
    const port = await freePort();
    await withHub(
      [http('nowhere', `http://127.0.0.1:${port}/mcp`), { name: 'old-nowhere', transport: 'sse', url: `http://127.0.0.1:${port}/sse` }],
      async (hub) => {
        await hub.settled();
        const s = hub.status('nowhere');
        assert.equal(s?.state, 'error');
        assert.equal(s?.error, `server nowhere: could not reach http://127.0.0.1:${port}/mcp: connection refused: is the server running, on that port?`);
        assert.equal(s?.restarts, 0);
        assert.match(hub.status('old-nowhere')?.error ?? '', new RegExp(`server old-nowhere: could not reach http://127\\.0\\.0\\.1:${port}/sse`));
      },
    );
  });

  test('a server that takes the connection and never answers ends in a timeout error, not "starting" forever', T, async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      await withHub(
        [http('silent', `http://127.0.0.1:${port}/mcp`)],
        async (hub) => {
          await hub.settled();
          const s = hub.status('silent');
          assert.equal(s?.state, 'error');
          assert.match(s?.error ?? '', /server silent did not answer (initialize|server\/discover \(which protocol era it speaks\)) within [\d.]+ s/);
        },
        { ...FAST, connection: { ...FAST.connection, initializeTimeoutMs: 500 } },
      );
      assert.ok(sockets.length >= 1);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  test('a config that is no URL is refused before anything is fetched', T, async () => {
    await withHub([http('bad', 'not a url'), http('ftp', 'ftp://127.0.0.1/mcp')], async (hub) => {
      await hub.settled();
      assert.match(hub.status('bad')?.error ?? '', /"not a url" is not a URL/);
      assert.match(hub.status('ftp')?.error ?? '', /only http: and https: URLs/);
    });
  });
});
