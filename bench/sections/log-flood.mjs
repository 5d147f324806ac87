// A tool call behind a server's log flood: the log-flood fake writes 200,000 notifications/message in one
// write (`burst`) and a `ping` is sent right after. Ours with its log budget (src/core/mcp/log-flood.ts) vs
// the same host with the budget off (what it did before: every line decoded, parsed, checked, queued), and
// a bare client that skips log lines unread (the floor: the fake's own time to write them).
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import { LineClient } from '../lib/line-client.mjs';
import { ROOT } from '../lib/setup.mjs';
import { fmtMs, fmtRatio, median, ratio } from '../lib/stats.mjs';

const FLOOD = join(ROOT, 'out', 'test', 'fakes', 'mcp-log-flood.js');
const UNLIMITED = { perSecond: Infinity, burst: Infinity };

/** Our McpConnection with a log sink that counts what reaches it (as the extension's LogBatcher would receive it). */
async function openOurs(host, logBudget) {
  const seen = { lines: 0, droppedReported: 0 };
  const sink = {
    log: (_level, text) => {
      const dropped = /^\((\d+) log messages? dropped/.exec(text);
      if (dropped) seen.droppedReported += Number(dropped[1]);
      else seen.lines++;
    },
  };
  const conn = new host.McpConnection(
    { name: 'flood', transport: 'stdio', command: process.execPath, args: [FLOOD] },
    { callTimeoutMs: 120_000, requestTimeoutMs: 60_000, logBudget, handlers: { logging: { sink: () => sink, level: 'debug' } } },
  );
  await conn.start();
  return { ping: () => conn.callTool('ping', {}), burst: (count) => conn.callTool('burst', { count }), close: () => conn.close(), seen };
}

/** A bare client whose reader skips log lines by their first bytes: what a host that reads nothing would wait. */
async function openFloor() {
  const client = LineClient.spawn(process.execPath, [FLOOD]);
  const onLine = client.onLine.bind(client);
  client.onLine = (line) => {
    if (line.subarray(0, 40).toString('latin1').includes('"notifications/message"')) return;
    onLine(line);
  };
  await client.initialize(LATEST_PROTOCOL_VERSION);
  const call = (name, args) => client.request('tools/call', { name, arguments: args });
  return { ping: () => call('ping', {}), burst: (count) => call('burst', { count }), close: () => client.close(), seen: undefined };
}

async function timedMs(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** The ping's time with `count` log lines written just before its answer; median of `runs`, a fresh server each. */
async function pingBehindFlood(open, count, runs) {
  const times = [];
  let seen;
  for (let i = 0; i < runs; i++) {
    const s = await open();
    try {
      for (let w = 0; w < 20; w++) await s.ping();
      const burst = s.burst(count);
      times.push(await timedMs(() => s.ping()));
      await burst;
    } finally {
      await s.close();
      seen = s.seen;
    }
  }
  return { ms: median(times), seen };
}

async function quietPing(open, calls) {
  const s = await open();
  try {
    for (let w = 0; w < 50; w++) await s.ping();
    const times = [];
    for (let i = 0; i < calls; i++) times.push(await timedMs(() => s.ping()));
    return median(times);
  } finally {
    await s.close();
  }
}

export async function benchLogFlood({ host, count = 200_000, runs = 3 }) {
  const quiet = await quietPing(() => openOurs(host), 200);
  const ours = await pingBehindFlood(() => openOurs(host), count, runs);
  const before = await pingBehindFlood(() => openOurs(host, UNLIMITED), count, runs);
  const floor = await pingBehindFlood(() => openFloor(), count, runs);
  const row = (label, ms, seen) => [
    label,
    fmtMs(ms),
    fmtRatio(ratio(ms, quiet)),
    fmtRatio(ratio(ms, floor.ms)),
    seen ? `${seen.lines.toLocaleString('en')} / ${seen.droppedReported.toLocaleString('en')}` : '-',
  ];
  return {
    title: `A tool call behind a log flood (${count.toLocaleString('en')} notifications/message written at once, then ping; median of ${runs}, a fresh server each)`,
    header: ['host', 'ping', 'vs quiet ping', 'vs floor', 'log lines kept / reported dropped'],
    rows: [
      ['ours, no flood (quiet ping, median of 200)', fmtMs(quiet), '1.00x', '-', '-'],
      row('ours: log budget (1,000 a second, 10,000 at once)', ours.ms, ours.seen),
      row('ours with the budget off (as before)', before.ms, before.seen),
      row('floor: bare client skipping log lines unread', floor.ms),
    ],
    notes: [
      'the ping is answered after the fake has written the whole flood (one write), so the floor is the fake building and writing it',
      'kept: lines that reached the server\'s log sink; dropped: the sum of its "(N log messages dropped ...)" lines (kept + dropped = the flood)',
    ],
    data: { count, runs, quietMs: quiet, oursMs: ours.ms, beforeMs: before.ms, floorMs: floor.ms, oursSeen: ours.seen, beforeSeen: before.seen },
  };
}
