// 1. Server start and idle memory: spawn → initialize answered → tools/list answered, then VmRSS.
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { LineClient } from '../lib/line-client.mjs';
import { RAW_ECHO, SERVERS, serverBundle } from '../lib/setup.mjs';
import { fmtBytes, fmtMs, fmtRatio, median, ratio } from '../lib/stats.mjs';

async function startOnce(script, workspace) {
  const t0 = performance.now();
  const client = LineClient.spawn(process.execPath, [script, workspace]);
  try {
    await client.initialize(LATEST_PROTOCOL_VERSION);
    const initMs = performance.now() - t0;
    const { tools } = await client.request('tools/list', {});
    const readyMs = performance.now() - t0;
    return { initMs, readyMs, rss: client.rssBytes(), tools: tools.length };
  } finally {
    await client.close();
  }
}

export async function benchStart({ workspace, official, runs = 10 }) {
  const subjects = [
    ...SERVERS.map((name) => ({ name, label: `ours: ${name}`, script: serverBundle(name) })),
    { name: 'official', label: `official server-filesystem ${official.version}`, script: official.script },
    { name: 'floor', label: 'floor: bare node answering by hand', script: RAW_ECHO },
  ];
  const samples = new Map(subjects.map((s) => [s.name, []]));
  // One warm-up each (disk cache), then round robin so drift hits every server alike.
  for (const s of subjects) await startOnce(s.script, workspace);
  for (let i = 0; i < runs; i++) {
    for (const s of subjects) samples.get(s.name).push(await startOnce(s.script, workspace));
  }
  const summary = subjects.map((s) => {
    const r = samples.get(s.name);
    return {
      server: s.name,
      label: s.label,
      initMs: median(r.map((x) => x.initMs)),
      readyMs: median(r.map((x) => x.readyMs)),
      rssBytes: median(r.map((x) => x.rss)),
      tools: r[0].tools,
    };
  });
  const base = summary.find((s) => s.server === 'official');
  const rows = summary.map((s) => [
    s.label,
    String(s.tools),
    fmtMs(s.initMs),
    fmtMs(s.readyMs),
    s === base || s.server === 'floor' ? '-' : fmtRatio(ratio(s.readyMs, base.readyMs)),
    fmtBytes(s.rssBytes),
    s === base || s.server === 'floor' ? '-' : fmtRatio(ratio(s.rssBytes, base.rssBytes)),
  ]);
  return {
    title: `Server start and idle memory (median of ${runs} starts; aim ≤ 120 ms, ≤ 50 MB)`,
    header: ['server', 'tools', 'initialize', 'tools/list', 'vs official', 'RSS', 'vs official'],
    rows,
    notes: [
      'times from spawn; "tools/list" = spawn → initialize answered → tools/list answered',
      'RSS = VmRSS of the server process right after tools/list answered (it stays there while idle)',
      'floor = bench/raw-echo.mjs: node itself plus a readline loop, no MCP library: what no server can beat',
    ],
    data: { runs, servers: summary },
  };
}
