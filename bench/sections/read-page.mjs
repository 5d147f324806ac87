// 2. One page of a 20 MB text file: our read_file(offset, limit) vs the official read_text_file(head/tail).
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { openOurs, openSdk, resultText } from '../lib/clients.mjs';
import { serverBundle } from '../lib/setup.mjs';
import { fmtBytes, fmtMs, fmtRatio, median, ratio, timed } from '../lib/stats.mjs';
import { writeBigText } from '../lib/fixtures.mjs';

const PAGE = 2000;
const FILE_BYTES = 20_000_000;

/** Calls `fn` `runs` times (after `before(i)`), returns the median ms and the last result's text size. */
async function sample(runs, fn, before = () => {}) {
  const times = [];
  let bytes = 0;
  let error;
  for (let i = 0; i < runs; i++) {
    before(i);
    const [ms, result] = await timed(fn);
    times.push(ms);
    bytes = Buffer.byteLength(resultText(result));
    if (result?.isError) error = resultText(result).slice(0, 160);
  }
  return { ms: median(times), runs, bytes, error };
}

export async function benchReadPage({ host, official, workspace, runs = 9, wholeRuns = 3 }) {
  const file = join(workspace, 'big.txt');
  const lines = writeBigText(file, FILE_BYTES);
  const last = lines - PAGE + 1;
  let mtime = Date.now() / 1000;
  // A new mtime makes our server rebuild its line index: every call is a cold read of the file.
  const touch = () => utimesSync(file, mtime, ++mtime);

  const ours = await openOurs(host, 'workspace', [serverBundle('workspace'), workspace]);
  const theirs = await openOurs(host, 'official', [official.script, workspace]);
  const read = (args) => () => ours.call('read_file', { path: 'big.txt', ...args });
  const readOfficial = (args) => () => theirs.call('read_text_file', { path: file, ...args }, 120_000);
  const rows = [];
  try {
    const headOfficial = await sample(runs, readOfficial({ head: PAGE }));
    const tailOfficial = await sample(runs, readOfficial({ tail: PAGE }));
    rows.push(['first page, cold index', await sample(runs, read({ offset: 1, limit: PAGE }), touch), headOfficial, `head=${PAGE}`]);
    rows.push(['first page, warm', await sample(runs, read({ offset: 1, limit: PAGE })), headOfficial, `head=${PAGE}`]);
    rows.push(['last page, cold index', await sample(runs, read({ offset: last, limit: PAGE }), touch), tailOfficial, `tail=${PAGE}`]);
    rows.push(['last page, warm', await sample(runs, read({ offset: last, limit: PAGE })), tailOfficial, `tail=${PAGE}`]);
    // What a model sends first: no paging parameters. Ours answers a capped first page.
    const wholeOfficial = await sample(wholeRuns, readOfficial({}));
    rows.push(['no paging params', await sample(runs, read({}), touch), wholeOfficial, 'whole file']);
  } finally {
    await ours.close();
    await theirs.close();
  }

  // The official server's whole-file answer through the SDK's own client at its defaults.
  const sdkWhole = await wholeFileThroughSdk(official, workspace, file);

  const table = rows.map(([what, o, b, how]) => [
    what,
    fmtMs(o.ms),
    fmtBytes(o.bytes),
    `${fmtMs(b.ms)}${b.error ? ' (error)' : ''}`,
    fmtBytes(b.bytes),
    how,
    fmtRatio(ratio(o.ms, b.ms)),
  ]);
  return {
    title: `Read one page of a 20 MB text file (${lines.toLocaleString('en')} lines; p50; aim ≤ 50 ms for any page)`,
    header: ['page', 'ours', 'answer', 'official', 'answer', 'official params', 'ratio'],
    rows: table,
    notes: [
      `ours: read_file(offset, limit=${PAGE}); ${runs} runs per row; official: read_text_file, ${runs} runs (whole file: ${wholeRuns})`,
      '"cold index": the file\'s mtime changes before each call, so our server rescans it for line starts',
      'official head/tail read only the needed chunks; it has no offset, so a page in the middle means the whole file',
      'both servers driven by our McpConnection (64 MiB message cap) so the whole-file answer can be timed',
      `official whole file through the SDK Client at its defaults: ${sdkWhole}`,
    ],
    data: {
      fileBytes: FILE_BYTES,
      lines,
      page: PAGE,
      rows: rows.map(([what, o, b, how]) => ({ what, ours: o, official: { ...b, params: how } })),
      officialWholeFileViaSdk: sdkWhole,
    },
  };
}

async function wholeFileThroughSdk(official, workspace, file) {
  const sdk = await openSdk([official.script, workspace]);
  try {
    const [ms, result] = await timed(() =>
      sdk.call('read_text_file', { path: file }, 60_000).then(
        (r) => ({ ok: r }),
        (err) => ({ err }),
      ),
    );
    if (result.ok) return `answered in ${fmtMs(ms)} (${fmtBytes(Buffer.byteLength(resultText(result.ok)))})`;
    const why = sdk.errors[0] ?? result.err?.message ?? String(result.err);
    return `FAILED after ${fmtMs(ms)}: ${why}${sdk.isClosed() ? '; the connection was closed' : ''}`;
  } finally {
    await sdk.close().catch(() => undefined);
  }
}
