// npm run bench: measures our bundles, servers and host client side by side with their baselines in
// one run, prints one table per section and writes .test-artifacts/bench.json. Never asserts times.
// Usage: node bench/run.mjs [start] [read] [tree] [rtt] [large] [sizes] [chat] [http] [orchestrator] [own] [webview] [logs] [checkpoint] [tools] [apps] [eras] [egress]   (no names: all sections)
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, type as osType, release } from 'node:os';
import { join } from 'node:path';
import { ROOT, buildProject, loadHost, officialFilesystemServer } from './lib/setup.mjs';
import { printTable } from './lib/table.mjs';
import { tempDir } from './lib/fixtures.mjs';
import { benchStart } from './sections/start.mjs';
import { benchReadPage } from './sections/read-page.mjs';
import { benchTree } from './sections/tree.mjs';
import { benchRoundTrip } from './sections/round-trip.mjs';
import { benchHttpRoundTrip } from './sections/http-round-trip.mjs';
import { benchLargeResult } from './sections/large-result.mjs';
import { benchSizes } from './sections/sizes.mjs';
import { benchChat } from './sections/chat.mjs';
import { benchOrchestrator } from './sections/orchestrator.mjs';
import { benchOwnServers } from './sections/own-servers.mjs';
import { benchWebview } from './sections/webview.mjs';
import { benchLogFlood } from './sections/log-flood.mjs';
import { benchCheckpoint } from './sections/checkpoint.mjs';
import { benchTools } from './sections/tools.mjs';
import { benchApps } from './sections/apps.mjs';
import { benchEras } from './sections/eras.mjs';
import { benchEgress } from './sections/egress.mjs';

const wanted = process.argv.slice(2);
const on = (name) => wanted.length === 0 || wanted.includes(name);
const started = performance.now();

const build = buildProject();
const host = await loadHost();
let official;
let officialError = 'not needed by the sections run';
// Installed only for the sections that compare against it, so a run of the others needs no registry.
if (['start', 'read', 'tree'].some(on)) {
  try {
    official = officialFilesystemServer();
  } catch (err) {
    // Offline or a registry hiccup: the sections without the baseline still run.
    officialError = `the official filesystem server could not be installed: ${err instanceof Error ? err.message : err}`;
  }
}
const needOfficial = () => {
  if (!official) throw new Error(officialError);
  return official;
};

const machine = {
  date: new Date().toISOString(),
  node: process.version,
  os: `${osType()} ${release()}`,
  cores: cpus().length,
  cpu: cpus()[0]?.model?.trim() ?? 'unknown',
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  officialServer: official ? `@modelcontextprotocol/server-filesystem ${official.version}` : officialError,
  buildWarning: build.warning,
};
console.log('# MCP Agent benchmarks');
console.log(`${machine.date}  |  ${machine.cores} cores (${machine.cpu}), ${machine.memoryGiB} GiB  |  Node ${machine.node}  |  ${machine.os}`);
if (build.warning) console.log(`\nWARNING: ${build.warning}\n`);
console.log(`baseline: ${machine.officialServer}; ratio = ours / baseline (below 1.00x: ours is faster or smaller)`);

const temps = [];
const temp = (tag) => {
  const dir = tempDir(tag);
  temps.push(dir);
  return dir;
};

const sections = [
  ['start', () => benchStart({ workspace: temp('start'), official: needOfficial() })],
  ['read', () => benchReadPage({ host, official: needOfficial(), workspace: temp('read') })],
  ['tree', () => benchTree({ host, official: needOfficial(), workspace: temp('tree') })],
  ['rtt', () => benchRoundTrip({ host })],
  ['large', () => benchLargeResult({ host })],
  ['sizes', () => benchSizes()],
  ['chat', () => benchChat()],
  ['http', () => benchHttpRoundTrip({ host, workspace: temp('http') })],
  ['orchestrator', () => benchOrchestrator({ workspace: temp('orchestrator') })],
  ['own', () => benchOwnServers({ workspace: temp('own') })],
  ['webview', () => benchWebview()],
  ['logs', () => benchLogFlood({ host })],
  ['checkpoint', () => benchCheckpoint({ temp })],
  ['tools', () => benchTools()],
  ['apps', () => benchApps()],
  ['eras', () => benchEras({ host, workspace: temp('eras') })],
  ['egress', () => benchEgress()],
];

const report = { machine, sections: {} };
try {
  for (const [name, run] of sections) {
    if (!on(name)) continue;
    const t0 = performance.now();
    try {
      const s = await run();
      printTable(s.title, s.header, s.rows, s.notes);
      report.sections[name] = { title: s.title, header: s.header, rows: s.rows, notes: s.notes, data: s.data };
    } catch (err) {
      // One broken section (a server being rewritten) must not hide the others.
      console.log(`\n## ${name}: FAILED\n  ${err instanceof Error ? err.stack : err}`);
      report.sections[name] = { failed: String(err instanceof Error ? err.message : err) };
    }
    report.sections[name].seconds = (performance.now() - t0) / 1000;
  }
} finally {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
}

report.seconds = (performance.now() - started) / 1000;
const out = join(ROOT, '.test-artifacts', 'bench.json');
mkdirSync(join(ROOT, '.test-artifacts'), { recursive: true });
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
console.log(`\nbench finished in ${report.seconds.toFixed(0)} s; results in ${out}`);
