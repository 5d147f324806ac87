// The v2 SDK (@modelcontextprotocol/client 2.x, both eras) beside v1 (@modelcontextprotocol/sdk 1.x, 2025-11-25
// only), client side: start to the first tools/list, a small call's round trip, a 10 MB result, bundle size.
// "v2 legacy" is the 2025-11-25 era on the v2 client; "v2 modern" is 2026-07-28, against a dual-era server on the
// v2 server package (test/fakes/mcp-modern.ts), which v1 can only reach in the old era.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { ECHO_SERVER, ROOT, SERVERS, serverBundle } from '../lib/setup.mjs';
import { fmtBytes, fmtMs, fmtRatio, fmtUs, median, percentile, ratio, timed } from '../lib/stats.mjs';

const DUAL_SERVER = join(ROOT, 'out', 'test', 'fakes', 'mcp-modern.js');
const BIG = 10_000_000;
const CAP = 64 * 1024 * 1024;
const info = { name: 'mcp-agent-bench', version: '0' };

/** A client of one SDK over stdio to `node <args>`; `era` for v2: 'auto' (probe), 'legacy' (remembered). */
async function open(sdk, args, era = 'auto') {
  const params = { command: process.execPath, args, stderr: 'ignore', maxBufferSize: CAP };
  if (sdk === 'v1') {
    const client = new ClientV1(info);
    await client.connect(new StdioV1(params));
    return client;
  }
  const client = new ClientV2(info, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
  await client.connect(new StdioV2(params), era === 'legacy' ? { prior: { kind: 'legacy' } } : {});
  return client;
}

/** Spawn → connected → first tools/list answered, in ms (median of `runs`, after one warm-up). */
async function startToTools(runs, start) {
  const times = [];
  for (let i = 0; i <= runs; i++) {
    const [ms, client] = await timed(async () => {
      const c = await start();
      await c.listTools();
      return c;
    });
    await client.close();
    if (i > 0) times.push(ms);
  }
  return median(times);
}

/** p50 and p99 in µs of `calls` sequential echo calls, after `warmup`. */
async function roundTrips(client, calls, warmup) {
  const call = () => client.callTool({ name: 'echo', arguments: { text: 'hello from the bench' } });
  for (let i = 0; i < warmup; i++) await call();
  const us = [];
  for (let i = 0; i < calls; i++) {
    const t0 = process.hrtime.bigint();
    await call();
    us.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  return { p50: percentile(us, 50), p99: percentile(us, 99) };
}

async function bigResult(client, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const [ms, r] = await timed(() => client.callTool({ name: 'big', arguments: { bytes: BIG } }, undefined, { timeout: 60_000 }));
    const got = (r.content ?? []).map((c) => c.text ?? '').join('').length;
    if (got !== BIG) throw new Error(`the 10 MB answer held ${got} characters`);
    times.push(ms);
  }
  return median(times);
}

/** Minified bundles of each SDK's client with its stdio and streamable HTTP transports: what a host carries. */
async function clientBundles() {
  const esbuild = await import('esbuild');
  const { lazyAjv } = await import('../../scripts/esbuild-plugins.mjs');
  const out = join(ROOT, 'out', 'bench', 'eras');
  const entries = {
    v1: "export { Client } from '@modelcontextprotocol/sdk/client/index.js'; export { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'; export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';",
    v2: "export { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'; export { StdioClientTransport } from '@modelcontextprotocol/client/stdio';",
  };
  const sizes = {};
  for (const [key, contents] of Object.entries(entries)) {
    const outfile = join(out, `${key}.js`);
    await esbuild.build({
      stdin: { contents, resolveDir: ROOT, loader: 'js', sourcefile: `${key}-client.js` },
      bundle: true,
      minify: true,
      legalComments: 'none',
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile,
      logLevel: 'warning',
      plugins: [lazyAjv],
    });
    sizes[key] = statSync(outfile).size;
  }
  return sizes;
}

/** Runs `fn` on a connected client, closing it after. */
async function withClient(start, fn) {
  const client = await start();
  try {
    return await fn(client);
  } finally {
    await client.close().catch(() => undefined);
  }
}

export async function benchEras({ host, workspace, runs = 5, calls = 1000, warmup = 200 }) {
  const data = { start: {}, rtt: {}, big: {}, bytes: {} };
  const rows = [];
  /** `eras()` gives the era memory of each start: a fresh one is a server never seen, a shared one a known server. */
  /** A server pinned to 2025-11-25 (`era: 'legacy'` in its config, so it is never asked). */
  const pinnedLegacy = new host.MemoryEras();
  const ours = (args, eras) => async () => {
    const memory = eras();
    const era = memory === pinnedLegacy ? { era: 'legacy' } : {};
    const conn = new host.McpConnection({ name: 'bench', transport: 'stdio', command: process.execPath, args, ...era }, { eras: memory });
    await conn.start();
    // tools/list was part of start(): the same point the SDK clients reach with listTools().
    return { listTools: async () => conn.tools, close: () => conn.close() };
  };
  // The bundled servers serve both eras: v1 and v2 remembered in 2025-11-25, v2 negotiating 2026-07-28.
  for (const name of SERVERS) {
    const args = [serverBundle(name), workspace];
    const s = {
      v1: await startToTools(runs, () => open('v1', args)),
      v2legacy: await startToTools(runs, () => open('v2', args, 'legacy')),
      v2modern: await startToTools(runs, () => open('v2', args)),
      oursLegacy: await startToTools(
        runs,
        ours([...args], () => pinnedLegacy),
      ),
      oursModern: await startToTools(
        runs,
        ours(args, () => new host.MemoryEras()),
      ),
    };
    data.start[name] = s;
    rows.push([
      `start → tools/list: bundled ${name}`,
      fmtMs(s.v1),
      `${fmtMs(s.v2legacy)} (2025-11-25), ${fmtMs(s.v2modern)} (2026-07-28)`,
      fmtRatio(ratio(s.v2legacy, s.v1)),
      `ours: ${fmtMs(s.oursLegacy)} (2025-11-25, remembered), ${fmtMs(s.oursModern)} (2026-07-28)`,
    ]);
  }
  // A server that speaks 2025-11-25 alone, never seen: the probe is refused, then initialize.
  const echo = [ECHO_SERVER];
  const remembered = new host.MemoryEras();
  await (await ours(echo, () => remembered)()).close();
  const p = {
    v1: await startToTools(runs, () => open('v1', echo)),
    v2probe: await startToTools(runs, () => open('v2', echo)),
    oursFirst: await startToTools(
      runs,
      ours(echo, () => new host.MemoryEras()),
    ),
    oursRemembered: await startToTools(
      runs,
      ours(echo, () => remembered),
    ),
  };
  data.start.legacyOnly = p;
  rows.push([
    'start → tools/list: a 2025-11-25-only server, first seen',
    fmtMs(p.v1),
    `${fmtMs(p.v2probe)} probing`,
    fmtRatio(ratio(p.v2probe, p.v1)),
    `ours: ${fmtMs(p.oursFirst)} probing (one process), ${fmtMs(p.oursRemembered)} remembered`,
  ]);
  const dual = [DUAL_SERVER];
  const d = { v1: await startToTools(runs, () => open('v1', dual)), v2modern: await startToTools(runs, () => open('v2', dual)) };
  data.start.dual = d;
  rows.push([
    'start → tools/list: dual-era v2 server',
    `${fmtMs(d.v1)} (2025-11-25)`,
    `${fmtMs(d.v2modern)} (2026-07-28)`,
    fmtRatio(ratio(d.v2modern, d.v1)),
    'server/discover is the whole handshake in 2026-07-28',
  ]);

  data.rtt.v1 = await withClient(
    () => open('v1', [ECHO_SERVER]),
    (c) => roundTrips(c, calls, warmup),
  );
  data.rtt.v2legacy = await withClient(
    () => open('v2', [ECHO_SERVER], 'legacy'),
    (c) => roundTrips(c, calls, warmup),
  );
  data.rtt.v1dual = await withClient(
    () => open('v1', dual),
    (c) => roundTrips(c, calls, warmup),
  );
  data.rtt.v2dualLegacy = await withClient(
    () => open('v2', dual, 'legacy'),
    (c) => roundTrips(c, calls, warmup),
  );
  data.rtt.v2modern = await withClient(
    () => open('v2', dual),
    (c) => roundTrips(c, calls, warmup),
  );
  const r = data.rtt;
  rows.push([
    'small call p50 / p99: v1 echo server',
    `${fmtUs(r.v1.p50)} / ${fmtUs(r.v1.p99)}`,
    `${fmtUs(r.v2legacy.p50)} / ${fmtUs(r.v2legacy.p99)}`,
    fmtRatio(ratio(r.v2legacy.p50, r.v1.p50)),
    'v2 client in the 2025-11-25 era',
  ]);
  rows.push([
    'small call p50 / p99: dual-era v2 server, 2025-11-25',
    `${fmtUs(r.v1dual.p50)} / ${fmtUs(r.v1dual.p99)}`,
    `${fmtUs(r.v2dualLegacy.p50)} / ${fmtUs(r.v2dualLegacy.p99)}`,
    fmtRatio(ratio(r.v2dualLegacy.p50, r.v1dual.p50)),
    'both clients in the old era: the client alone',
  ]);
  rows.push([
    'small call p50 / p99: dual-era v2 server, 2026-07-28',
    `${fmtUs(r.v1dual.p50)} / ${fmtUs(r.v1dual.p99)} (2025-11-25)`,
    `${fmtUs(r.v2modern.p50)} / ${fmtUs(r.v2modern.p99)}`,
    fmtRatio(ratio(r.v2modern.p50, r.v1dual.p50)),
    'v2 in the new era (the envelope on every request, both ends)',
  ]);

  data.big.v1 = await withClient(
    () => open('v1', [ECHO_SERVER]),
    (c) => bigResult(c, 3),
  );
  data.big.v2 = await withClient(
    () => open('v2', [ECHO_SERVER], 'legacy'),
    (c) => bigResult(c, 3),
  );
  rows.push([
    '10 MB result (median of 3)',
    fmtMs(data.big.v1),
    fmtMs(data.big.v2),
    fmtRatio(ratio(data.big.v2, data.big.v1)),
    'both with a 64 MiB stdio buffer cap',
  ]);

  data.bytes = await clientBundles();
  rows.push([
    'client bundle, minified (Client + stdio + streamable HTTP)',
    fmtBytes(data.bytes.v1),
    fmtBytes(data.bytes.v2),
    fmtRatio(ratio(data.bytes.v2, data.bytes.v1)),
    'v2 carries both eras, OAuth and the tasks surface',
  ]);
  return {
    title: `The v2 SDK beside v1 (start: median of ${runs}; calls: ${calls} after ${warmup} warm-up; aim: v2 no slower in either era)`,
    header: ['measure', 'v1 (@modelcontextprotocol/sdk 1.x)', 'v2 (@modelcontextprotocol/client 2.x)', 'v2/v1', 'note'],
    rows,
    notes: [
      '"remembered": the era a server answered with is kept (eras.json), so a known server is connected without the server/discover probe',
      'the bare v2 client negotiating over its own StdioClientTransport asks server/discover of a disposable process of its own, then starts the server again for the session (both eras: two spawns); ours asks in place, one process',
      "the host negotiates 2026-07-28 with every bundled server and remembers it, the orchestrator included (its sub-agents' approvals mid-turn hold the call open in its process: servers/lib/modern-continuation.ts)",
      "why a small 2026-07-28 call is slower: in one process (v2 client and v2 server over InMemoryTransport, no pipe, no scheduling) it costs 56-64 µs of CPU against 36-40 µs in 2025-11-25; a CPU profile puts the difference in the v2 packages themselves: zod validating the _meta envelope on every request and result (handleCatchall, 7x), zod union branches tried and failed to tell the era's results apart (failure, _getMessage), three times the garbage collection, and the serverInfo stamped on every result. None of it is code of ours (test/fakes/mcp-modern.ts is the SDK's own serving); the rest of the stdio difference is the larger messages (292 vs 115 bytes out, 202 vs 93 back) and the two processes' scheduling on a loaded 2-core machine",
    ],
    data,
  };
}
