// 5. Large results: a 10 MB and a 40 MB echo through our McpConnection vs the SDK's StdioClientTransport.
// Every client talks to the raw echo server, which writes a big answer from a ready buffer: the times are the
// clients' own (read, join, decode, parse, check), and the client CPU of each call is taken too, since on a busy
// machine wall time is mostly the wait for a core.
import { loadavg } from 'node:os';
import { openOurs, openSdk, resultText } from '../lib/clients.mjs';
import { LineClient } from '../lib/line-client.mjs';
import { RAW_ECHO } from '../lib/setup.mjs';
import { fmtMs, fmtRatio, median, ratio, timed } from '../lib/stats.mjs';

const SIZES = [10_000_000, 40_000_000];
const HANG_MS = 30_000;

async function openRaw() {
  const client = LineClient.spawn(process.execPath, [RAW_ECHO]);
  return {
    call: (tool, args) => client.request('tools/call', { name: tool, arguments: args }),
    close: () => client.close(),
  };
}

/** Median ms (wall, and this process's CPU: the client's) of `runs` calls of big(bytes); a failure is { failed }. */
async function sample(conn, bytes, runs, errors = []) {
  const times = [];
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const cpu0 = process.cpuUsage();
    const [ms, out] = await timed(() =>
      conn.call('big', { bytes }, HANG_MS).then(
        (r) => ({ r }),
        (err) => ({ err }),
      ),
    );
    const used = process.cpuUsage(cpu0);
    if (out.err || out.r?.isError) {
      const why = errors[0] ?? out.err?.message ?? resultText(out.r);
      return { failed: `${why} (after ${fmtMs(ms)})` };
    }
    const got = resultText(out.r).length;
    if (got !== bytes) return { failed: `answer held ${got} characters, not ${bytes}` };
    times.push(ms);
    cpu.push((used.user + used.system) / 1000);
  }
  return { ms: median(times), cpuMs: median(cpu), runs };
}

export async function benchLargeResult({ host, runs = 3 }) {
  const load = loadavg()[0];
  const results = {};
  const withConn = async (key, open, fn) => {
    const conn = await open();
    try {
      results[key] = await fn(conn);
    } finally {
      await conn.close().catch(() => undefined);
    }
  };
  const eachSize = async (conn, n, errors) => {
    const out = [];
    for (const size of SIZES) out.push(await sample(conn, size, n, errors));
    return out;
  };
  await withConn('raw', openRaw, (c) => eachSize(c, runs));
  await withConn(
    'ours',
    () => openOurs(host, 'echo', [RAW_ECHO]),
    (c) => eachSize(c, runs),
  );
  // At its defaults the SDK may close the connection on a big answer: a fresh connection per size.
  results.sdk = [];
  for (const size of SIZES) {
    const sdk = await openSdk([RAW_ECHO]);
    try {
      results.sdk.push(await sample(sdk, size, runs, sdk.errors));
    } finally {
      await sdk.close().catch(() => undefined);
    }
  }
  // With its cap raised, the SDK's own buffer shows its cost (one run: it is quadratic).
  await withConn(
    'sdkRaised',
    () => openSdk([RAW_ECHO], { maxBufferSize: 64 * 1024 * 1024 }),
    (c) => eachSize(c, 1, c.errors),
  );

  const cell = (x) => (x.failed ? `FAILED` : fmtMs(x.ms));
  const cpuCell = (x) => (x.failed ? '-' : fmtMs(x.cpuMs));
  const rows = SIZES.map((size, i) => {
    const [raw, ours, sdk, raised] = [results.raw[i], results.ours[i], results.sdk[i], results.sdkRaised[i]];
    return [
      `${size / 1_000_000} MB echo`,
      cell(raw),
      cell(ours),
      cell(sdk),
      cell(raised),
      fmtRatio(ratio(ours.ms, sdk.ms)),
      fmtRatio(ratio(ours.ms, raised.ms)),
      fmtRatio(ratio(ours.ms, raw.ms)),
      cpuCell(raw),
      cpuCell(ours),
    ];
  });
  const failures = SIZES.flatMap((size, i) =>
    ['raw', 'ours', 'sdk', 'sdkRaised'].filter((k) => results[k][i].failed).map((k) => `${k} at ${size / 1_000_000} MB: ${results[k][i].failed}`),
  );
  return {
    title: `Large tool results through the client (median of ${runs}; SDK with raised cap: 1 run)`,
    header: ['result', 'raw pipe', 'ours', 'SDK default', 'SDK 64 MiB cap', 'ours/SDK', 'ours/SDK 64 MiB', 'ours/raw', 'raw CPU', 'ours CPU'],
    rows,
    notes: [
      'every client talks to the raw echo child (bench/raw-echo.mjs), which writes a big answer from a ready buffer; raw = the bare newline-JSON client',
      "CPU = the client process's CPU time per call (median): on a busy machine wall time is mostly the wait for a core",
      `40 MB / 10 MB: ours ${growth(results.ours, 'ms')} wall, ${growth(results.ours, 'cpuMs')} CPU; raw ${growth(results.raw, 'ms')} wall, ${growth(results.raw, 'cpuMs')} CPU (4.00x is linear); load average ${load.toFixed(1)}`,
      'SDK default = StdioClientTransport as shipped (10 MiB ReadBuffer cap); SDK 64 MiB cap = maxBufferSize raised',
      ...failures,
    ],
    data: { sizes: SIZES, runs, ...results },
  };
}

/** How much longer the 40 MB answer took than the 10 MB one. */
function growth([small, big], key) {
  return small.failed || big.failed ? '-' : fmtRatio(ratio(big[key], small[key]));
}
