// 5. Large results: a 10 MB and a 40 MB echo through our McpConnection vs the SDK's StdioClientTransport.
import { openOurs, openSdk, resultText } from '../lib/clients.mjs';
import { LineClient } from '../lib/line-client.mjs';
import { ECHO_SERVER, RAW_ECHO } from '../lib/setup.mjs';
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

/** Median ms of `runs` calls of big(bytes); a failure is returned as { failed } instead of a time. */
async function sample(conn, bytes, runs, errors = []) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const [ms, out] = await timed(() =>
      conn.call('big', { bytes }, HANG_MS).then(
        (r) => ({ r }),
        (err) => ({ err }),
      ),
    );
    if (out.err || out.r?.isError) {
      const why = errors[0] ?? out.err?.message ?? resultText(out.r);
      return { failed: `${why} (after ${fmtMs(ms)})` };
    }
    const got = resultText(out.r).length;
    if (got !== bytes) return { failed: `answer held ${got} characters, not ${bytes}` };
    times.push(ms);
  }
  return { ms: median(times), runs };
}

export async function benchLargeResult({ host, runs = 3 }) {
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
    () => openOurs(host, 'echo', [ECHO_SERVER]),
    (c) => eachSize(c, runs),
  );
  // At its defaults the SDK may close the connection on a big answer: a fresh connection per size.
  results.sdk = [];
  for (const size of SIZES) {
    const sdk = await openSdk([ECHO_SERVER]);
    try {
      results.sdk.push(await sample(sdk, size, runs, sdk.errors));
    } finally {
      await sdk.close().catch(() => undefined);
    }
  }
  // With its cap raised, the SDK's own buffer shows its cost (one run: it is quadratic).
  await withConn(
    'sdkRaised',
    () => openSdk([ECHO_SERVER], { maxBufferSize: 64 * 1024 * 1024 }),
    (c) => eachSize(c, 1, c.errors),
  );

  const cell = (x) => (x.failed ? `FAILED` : fmtMs(x.ms));
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
    ];
  });
  const failures = SIZES.flatMap((size, i) =>
    ['raw', 'ours', 'sdk', 'sdkRaised'].filter((k) => results[k][i].failed).map((k) => `${k} at ${size / 1_000_000} MB: ${results[k][i].failed}`),
  );
  return {
    title: `Large tool results through the client (median of ${runs}; SDK with raised cap: 1 run)`,
    header: ['result', 'raw pipe', 'ours', 'SDK default', 'SDK 64 MiB cap', 'ours/SDK', 'ours/SDK 64 MiB', 'ours/raw'],
    rows,
    notes: [
      'ours and SDK talk to the same SDK echo server (tool "big"); raw = bare client ↔ raw echo child',
      'SDK default = StdioClientTransport as shipped (10 MiB ReadBuffer cap); SDK 64 MiB cap = maxBufferSize raised',
      ...failures,
    ],
    data: { sizes: SIZES, runs, ...results },
  };
}
