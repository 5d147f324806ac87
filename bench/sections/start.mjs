// 1. Server start and idle memory: spawn → opened (initialize, or server/discover in 2026-07-28) → tools/list
// answered, then VmRSS; and VmRSS once the server has sat idle long enough for V8 to give memory back. Each bundled
// server is measured in both eras: 2026-07-28 is the one the host negotiates with it, 2025-11-25 any older client's.
import { setTimeout as sleep } from 'node:timers/promises';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { LineClient } from '../lib/line-client.mjs';
import { RAW_ECHO, SERVERS, buildShippedServers, serverBundle } from '../lib/setup.mjs';
import { fmtBytes, fmtMs, fmtRatio, median, ratio } from '../lib/stats.mjs';

const LEGACY = LATEST_PROTOCOL_VERSION;
const MODERN = '2026-07-28';

/** V8's memory reducer runs about 8 s after a process goes quiet; measured at 2, 5, 10, 15, 20 and 30 s, it was done by 10. */
const IDLE_MS = 12_000;

async function ready({ script, era }, workspace) {
  const t0 = performance.now();
  const client = LineClient.spawn(process.execPath, [script, workspace]);
  try {
    await (era === MODERN ? client.discover(MODERN) : client.initialize(LEGACY));
    const initMs = performance.now() - t0;
    const { tools } = await client.request('tools/list', {});
    return { client, initMs, readyMs: performance.now() - t0, rss: client.rssBytes(), tools: tools.length };
  } catch (err) {
    await client.close();
    throw err;
  }
}

async function startOnce(subject, workspace) {
  const r = await ready(subject, workspace);
  await r.client.close();
  return r;
}

/** Every subject started at once, left alone for IDLE_MS, then its RSS. */
async function idleRound(subjects, workspace) {
  const started = await Promise.all(subjects.map((s) => ready(s, workspace)));
  try {
    await sleep(IDLE_MS);
    return started.map((r) => r.client.rssBytes());
  } finally {
    await Promise.all(started.map((r) => r.client.close()));
  }
}

export async function benchStart({ workspace, official, runs = 10, idleRounds = 3 }) {
  const shipped = await buildShippedServers();
  const ours = (name, build, script) =>
    [MODERN, LEGACY].map((era) => ({
      name: `${name}${build ? ` (${build})` : ''} ${era}`,
      label: `ours${build ? `, ${build}` : ''}: ${name}, ${era}`,
      server: name,
      build,
      script,
      era,
    }));
  const subjects = [
    ...SERVERS.flatMap((name) => ours(name, '', serverBundle(name))),
    ...SERVERS.flatMap((name) => ours(name, 'as shipped', shipped(name))),
    { name: 'official', label: `official server-filesystem ${official.version}, ${LEGACY}`, script: official.script, era: LEGACY },
    { name: 'floor', label: 'floor: bare node answering by hand', script: RAW_ECHO, era: LEGACY },
  ];
  const samples = new Map(subjects.map((s) => [s.name, []]));
  // One warm-up each (disk cache), then round robin so drift hits every server alike.
  for (const s of subjects) await startOnce(s, workspace);
  for (let i = 0; i < runs; i++) {
    for (const s of subjects) samples.get(s.name).push(await startOnce(s, workspace));
  }
  const idle = subjects.map(() => []);
  for (let i = 0; i < idleRounds; i++) (await idleRound(subjects, workspace)).forEach((rss, j) => idle[j].push(rss));
  const summary = subjects.map((s, j) => {
    const r = samples.get(s.name);
    return {
      server: s.name,
      label: s.label,
      era: s.era,
      of: s.server,
      build: s.build,
      initMs: median(r.map((x) => x.initMs)),
      readyMs: median(r.map((x) => x.readyMs)),
      rssBytes: median(r.map((x) => x.rss)),
      idleRssBytes: median(idle[j]),
      idleRssAll: idle[j],
      tools: r[0].tools,
    };
  });
  const base = summary.find((s) => s.server === 'official');
  const vs = (s, key) => (s === base || s.server === 'floor' ? '-' : fmtRatio(ratio(s[key], base[key])));
  /** A 2026-07-28 figure against the same server's, same build's, 2025-11-25 one. */
  const vsLegacy = (s, key) => {
    const legacy = s.era === MODERN && summary.find((o) => o.of === s.of && o.build === s.build && o.era === LEGACY);
    return legacy ? fmtRatio(ratio(s[key], legacy[key])) : '-';
  };
  const rows = summary.map((s) => [
    s.label,
    String(s.tools),
    fmtMs(s.initMs),
    fmtMs(s.readyMs),
    vs(s, 'readyMs'),
    fmtBytes(s.rssBytes),
    vs(s, 'rssBytes'),
    vsLegacy(s, 'rssBytes'),
    fmtBytes(s.idleRssBytes),
    vs(s, 'idleRssBytes'),
    vsLegacy(s, 'idleRssBytes'),
  ]);
  return {
    title: `Server start and idle memory (median of ${runs} starts; aim in ${MODERN}: tools/list ≤ 0.5x official, RSS ≤ 0.8x official and ≤ 1.1x ${LEGACY})`,
    header: [
      'server, era',
      'tools',
      'opened',
      'tools/list',
      'vs official',
      'RSS ready',
      'vs official',
      `vs ${LEGACY}`,
      `RSS idle ${IDLE_MS / 1000} s`,
      'vs official',
      `vs ${LEGACY}`,
    ],
    rows,
    notes: [
      `times from spawn; "opened" = initialize answered (${LEGACY}) or server/discover answered (${MODERN}, the era the host negotiates with every bundled server); "tools/list" = spawn → opened → tools/list answered`,
      `"vs ${LEGACY}" = the same server and build opened in ${MODERN} against ${LEGACY} (its ${MODERN} side is dist/servers/modern-era.js, loaded by the first such client)`,
      `the official filesystem server speaks ${LEGACY} only`,
      'RSS ready = VmRSS of the server process right after tools/list answered',
      `RSS idle = VmRSS after ${IDLE_MS / 1000} s without a request (every subject started at once; median of ${idleRounds} rounds): by then V8's memory reducer has usually given back what start-up grew, not always on a loaded machine (bench.json has every round)`,
      '"as shipped" = the servers as `npm run package` builds them (minified, names kept: scripts/esbuild-plugins.mjs)',
      'floor = bench/raw-echo.mjs: node itself plus a readline loop, no MCP library: what no server can beat',
    ],
    data: { runs, idleMs: IDLE_MS, idleRounds, servers: summary },
  };
}
