// 3. A 10,000-file tree: our list_directory / search_files vs the official directory_tree / search_files.
import { openOurs, resultText } from '../lib/clients.mjs';
import { serverBundle } from '../lib/setup.mjs';
import { fmtBytes, fmtMs, fmtRatio, median, ratio, timed } from '../lib/stats.mjs';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeTree } from '../lib/fixtures.mjs';

async function sample(runs, fn) {
  await fn(); // warm-up: directory entries in the OS cache for both sides alike
  const times = [];
  let text = '';
  for (let i = 0; i < runs; i++) {
    const [ms, result] = await timed(fn);
    times.push(ms);
    text = resultText(result);
    if (result?.isError) throw new Error(`tool error: ${text.slice(0, 200)}`);
  }
  return { ms: median(times), runs, bytes: Buffer.byteLength(text), text };
}

const DEEP = 24;

const countLines = (text, re) => text.split('\n').filter((l) => re.test(l)).length;

export async function benchTree({ host, official, workspace, runs = 7, slowRuns = 3 }) {
  const made = writeTree(workspace);
  const ours = await openOurs(host, 'workspace', [serverBundle('workspace'), workspace]);
  const theirs = await openOurs(host, 'official', [official.script, workspace]);
  const skip = ['.git', 'node_modules'];
  const results = [];
  try {
    const list = await sample(runs, () => ours.call('list_directory', { depth: 10 }));
    const tree = await sample(slowRuns, () => theirs.call('directory_tree', { path: workspace }, 120_000));
    const treeSkip = await sample(slowRuns, () => theirs.call('directory_tree', { path: workspace, excludePatterns: skip }, 120_000));
    results.push({ what: 'tree: list_directory(depth=10) vs directory_tree', ours: list, official: tree, entries: (t) => countLines(t, /item-\d+\.txt/) });
    results.push({
      what: '  same, official with excludePatterns [.git, node_modules]',
      ours: list,
      official: treeSkip,
      entries: (t) => countLines(t, /item-\d+\.txt/),
    });

    const search = await sample(runs, () => ours.call('search_files', { pattern: 'item-42.' }));
    const find = await sample(slowRuns, () => theirs.call('search_files', { path: workspace, pattern: '**/item-42.*' }, 120_000));
    const findSkip = await sample(slowRuns, () => theirs.call('search_files', { path: workspace, pattern: '**/item-42.*', excludePatterns: skip }, 120_000));
    results.push({ what: 'name search: "item-42." vs "**/item-42.*"', ours: search, official: find, entries: (t) => countLines(t, /item-42\.txt/) });
    results.push({
      what: '  same, official with excludePatterns [.git, node_modules]',
      ours: search,
      official: findSkip,
      entries: (t) => countLines(t, /item-42\.txt/),
    });

    // A crafted glob (a run of "**/") against a path 24 folders deep: the hostile-input case.
    // Made after the rows above so that they see the same tree as before.
    const deep = join(workspace, 'deep', ...Array.from({ length: DEEP }, (_, i) => `d${i}`));
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'x'), 'x');
    const crafted = `${'**/'.repeat(18)}x`;
    const oursCrafted = await sample(runs, () => ours.call('search_files', { pattern: crafted, path: 'deep' }, 120_000));
    const theirsCrafted = await sample(slowRuns, () => theirs.call('search_files', { path: join(workspace, 'deep'), pattern: crafted }, 120_000));
    results.push({
      what: `crafted glob "**/" x 18 + "x", ${DEEP} folders deep`,
      ours: oursCrafted,
      official: theirsCrafted,
      entries: (t) => countLines(t, /d23\/x"?,?$/),
    });
  } finally {
    await ours.close();
    await theirs.close();
  }
  const rows = results.map((r) => [
    r.what,
    fmtMs(r.ours.ms),
    `${r.entries(r.ours.text)} / ${fmtBytes(r.ours.bytes)}`,
    fmtMs(r.official.ms),
    `${r.entries(r.official.text)} / ${fmtBytes(r.official.bytes)}`,
    fmtRatio(ratio(r.ours.ms, r.official.ms)),
  ]);
  return {
    title: `List and search a tree of ${made.files.toLocaleString('en')} files (+${made.skipped.toLocaleString('en')} in .git and node_modules; p50)`,
    header: ['operation', 'ours', 'files / answer', 'official', 'files / answer', 'ratio'],
    rows,
    notes: [
      `ours ${runs} runs per row, official ${slowRuns}, each after one warm-up call`,
      'ours skips .git and node_modules by default and caps a listing at 1,000 entries (the answer says so)',
      '"files" = file names in the answer; the official tree is JSON of every entry, ours an indented text tree',
    ],
    data: {
      tree: made,
      rows: results.map((r) => ({
        what: r.what.trim(),
        ours: { ms: r.ours.ms, runs: r.ours.runs, bytes: r.ours.bytes, files: r.entries(r.ours.text) },
        official: { ms: r.official.ms, runs: r.official.runs, bytes: r.official.bytes, files: r.entries(r.official.text) },
      })),
    },
  };
}
