// 4. Small tool call round trip: our host client vs the SDK Client vs newline-JSON over raw pipes.
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { openOurs, openSdk } from '../lib/clients.mjs';
import { LineClient } from '../lib/line-client.mjs';
import { ECHO_SERVER, RAW_ECHO } from '../lib/setup.mjs';
import { fmtRatio, fmtUs, percentile, ratio } from '../lib/stats.mjs';

const ARGS = { text: 'hello from the bench' };

async function rawCaller(script, handshake) {
  const client = LineClient.spawn(process.execPath, [script]);
  if (handshake) await client.initialize(LATEST_PROTOCOL_VERSION);
  return {
    call: () => client.request('tools/call', { name: 'echo', arguments: ARGS }),
    close: () => client.close(),
  };
}

export async function benchRoundTrip({ host, calls = 2000, warmup = 300, blocks = 8 }) {
  const subjects = [
    { key: 'raw', label: 'raw newline-JSON client ↔ raw echo child', open: () => rawCaller(RAW_ECHO, false) },
    { key: 'rawSdkServer', label: 'raw client ↔ SDK echo server', open: () => rawCaller(ECHO_SERVER, true) },
    { key: 'sdk', label: 'SDK Client + StdioClientTransport ↔ SDK echo server', open: () => openSdk([ECHO_SERVER]) },
    { key: 'ours', label: 'ours: McpConnection ↔ SDK echo server', open: () => openOurs(host, 'echo', [ECHO_SERVER]) },
    {
      key: 'oursAgent',
      label: 'ours, as the agent calls (turn signal, progress callback)',
      open: () => openOurs(host, 'echo', [ECHO_SERVER], { signal: new AbortController().signal, onProgress: () => undefined }),
    },
  ];
  const open = [];
  try {
    for (const s of subjects) open.push({ ...s, conn: await s.open(), us: [] });
    for (const s of open) for (let i = 0; i < warmup; i++) await s.conn.call('echo', ARGS);
    // Blocks in turn, so a slow spell of the machine hits all four alike.
    const perBlock = Math.ceil(calls / blocks);
    for (let b = 0; b < blocks; b++) {
      for (const s of open) {
        for (let i = 0; i < perBlock; i++) {
          const t0 = process.hrtime.bigint();
          await s.conn.call('echo', ARGS);
          s.us.push(Number(process.hrtime.bigint() - t0) / 1000);
        }
      }
    }
  } finally {
    for (const s of open) await s.conn.close().catch(() => undefined);
  }
  const stats = Object.fromEntries(
    open.map((s) => [s.key, { label: s.label, calls: s.us.length, p50: percentile(s.us, 50), p95: percentile(s.us, 95), p99: percentile(s.us, 99) }]),
  );
  const raw = stats.raw;
  const server = stats.rawSdkServer;
  const rows = open.map((s) => {
    const x = stats[s.key];
    return [
      x.label,
      fmtUs(x.p50),
      fmtUs(x.p99),
      s.key === 'raw' ? '-' : fmtRatio(ratio(x.p50, raw.p50)),
      s.key === 'raw' || s.key === 'rawSdkServer' ? '-' : fmtRatio(ratio(x.p50, server.p50)),
    ];
  });
  const overhead = ratio(stats.ours.p50, raw.p50);
  return {
    title: `Small tool call round trip (${calls.toLocaleString('en')} sequential calls each after ${warmup} warm-up; aim: ours ≤ 1.5x raw at p50)`,
    header: ['client ↔ server', 'p50', 'p99', 'p50 vs raw', 'p50 vs raw client, same server'],
    rows,
    notes: [
      `host overhead, ours vs raw pipe at p50: ${fmtRatio(overhead)}; ours vs the SDK Client at p50: ${fmtRatio(ratio(stats.ours.p50, stats.sdk.p50))}`,
      `p95 vs the SDK Client's p95 (aim ≤ 2x): ours ${fmtRatio(ratio(stats.ours.p95, stats.sdk.p95))}, as the agent calls ${fmtRatio(ratio(stats.oursAgent.p95, stats.sdk.p95))}`,
      "the agent passes every call its turn's AbortSignal (Stop) and a progress callback, so that row is the path a chat takes",
      'the last column isolates the client: same SDK echo server, our client vs a bare newline-JSON client',
    ],
    data: { calls, warmup, stats, oursVsRawP50: overhead, oursVsSdkP50: ratio(stats.ours.p50, stats.sdk.p50) },
  };
}
