// 10. The person's own servers through the core host: ten configured stdio servers started at once vs one, and a
// config edit until the changed server answers again (the config loader and McpHub.update, which the CLI and the
// extension share; the extension's file watcher and its debounce in src/vscode are not part of it).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { ECHO_SERVER, ROOT } from '../lib/setup.mjs';
import { NODE_TARGET } from '../../scripts/esbuild-plugins.mjs';
import { fmtMs, fmtRatio, median, ratio } from '../lib/stats.mjs';

const CORE_BUNDLE = join(ROOT, 'out', 'bench', 'own-servers.cjs');

/** The hub and the config loader bundled as the extension and the CLI bundle them (SDK included). */
async function loadCore() {
  const esbuild = await import('esbuild');
  await esbuild.build({
    stdin: {
      contents: [
        "export { McpHub } from './src/core/mcp/hub/hub';",
        "export { loadConfigFiles } from './src/core/mcp/config/load';",
        "export { resolveServers } from './src/core/mcp/config/resolve';",
        "export { userConfigSource } from './src/core/mcp/config/sources';",
      ].join('\n'),
      resolveDir: ROOT,
      loader: 'ts',
      sourcefile: 'bench-own-servers.ts',
    },
    bundle: true,
    ...NODE_TARGET,
    outfile: CORE_BUNDLE,
    logLevel: 'warning',
  });
  return createRequire(import.meta.url)(CORE_BUNDLE);
}

/** A Claude-format config of `n` echo servers; `tags` changes a server's environment, so its definition. */
function writeConfig(file, n, tags = {}) {
  const servers = {};
  for (let i = 0; i < n; i++) {
    servers[`echo${i}`] = { command: process.execPath, args: [ECHO_SERVER, `--name=echo${i}`], env: { BENCH_TAG: String(tags[`echo${i}`] ?? 0) } };
  }
  writeFileSync(file, JSON.stringify({ mcpServers: servers }, null, 2));
}

/** The configs the file stands for now, read and resolved the way the CLI does for --mcp-config. */
async function readConfigs(core, file, workspace) {
  const ctx = { workspaceFolder: workspace, userHome: workspace, env: process.env };
  const [loaded] = core.loadConfigFiles([core.userConfigSource(file)], ctx);
  if (loaded.diagnostics.length) throw new Error(`bench config: ${loaded.diagnostics.map((d) => d.message).join('; ')}`);
  const { servers } = await core.resolveServers(loaded.definitions, async () => undefined);
  return servers.map((s) => s.config);
}

/** Resolves once `done()` holds, checked on every hub change (no polling); a minute without it is a failure, not a hang. */
function until(hub, done, what) {
  return new Promise((resolve, reject) => {
    let off = () => {};
    const timer = setTimeout(() => {
      off();
      reject(
        new Error(
          `${what}: not within 60 s (${hub
            .statuses()
            .map((s) => `${s.name} ${s.state}${s.error ? `: ${s.error}` : ''}`)
            .join(', ')})`,
        ),
      );
    }, 60_000);
    const check = () => {
      if (!done()) return;
      clearTimeout(timer);
      off();
      resolve();
    };
    off = hub.on('change', check);
    check();
  });
}

const allReady = (hub) => hub.statuses().every((s) => s.state === 'ready' || s.state === 'error');

/** hub.start() → every server has answered initialize and tools/list. */
async function startAll(core, configs) {
  const hub = new core.McpHub(configs, { changeDebounceMs: 0 });
  try {
    const t0 = performance.now();
    hub.start();
    await until(hub, () => allReady(hub), 'every server ready');
    const ms = performance.now() - t0;
    const failed = hub.statuses().filter((s) => s.state !== 'ready');
    if (failed.length) throw new Error(`${failed.map((s) => `${s.name}: ${s.error}`).join('; ')}`);
    return ms;
  } finally {
    await hub.dispose();
  }
}

/** Ten servers running; one's definition edited in the file → that server ready again. Also counts who restarted. */
async function editOnce(core, hub, file, workspace, n, tags, edit) {
  const pids = new Map(hub.statuses().map((s) => [s.name, s.pid]));
  const target = `echo${edit % n}`;
  tags[target] = edit + 1;
  const t0 = performance.now();
  writeConfig(file, n, tags);
  await hub.update(await readConfigs(core, file, workspace));
  await until(hub, () => hub.status(target)?.state === 'ready' && hub.status(target)?.pid !== pids.get(target), `${target} ready again`);
  const ms = performance.now() - t0;
  await until(hub, () => allReady(hub), 'every server ready');
  const restarted = hub.statuses().filter((s) => s.pid !== pids.get(s.name)).length;
  return { ms, restarted };
}

export async function benchOwnServers({ workspace, runs = 5, edits = 10, n = 10 }) {
  const core = await loadCore();
  const load = loadavg()[0];
  const file = join(workspace, 'mcp.json');
  writeConfig(file, n);
  const ten = await readConfigs(core, file, workspace);
  const one = ten.slice(0, 1);
  // One warm-up each (disk cache), then in turn so drift hits both alike.
  await startAll(core, one);
  await startAll(core, ten);
  const oneMs = [];
  const tenMs = [];
  const serialMs = [];
  for (let i = 0; i < runs; i++) {
    oneMs.push(await startAll(core, one));
    tenMs.push(await startAll(core, ten));
    // The reference for "in parallel": the same ten, each started only after the one before is ready.
    let serial = 0;
    for (const config of ten) serial += await startAll(core, [config]);
    serialMs.push(serial);
  }

  const hub = new core.McpHub(ten, { changeDebounceMs: 0 });
  const editMs = [];
  const restarts = [];
  const tags = {};
  try {
    hub.start();
    await until(hub, () => allReady(hub), 'every server ready');
    for (let i = 0; i <= edits; i++) {
      const { ms, restarted } = await editOnce(core, hub, file, workspace, n, tags, i);
      if (i === 0) continue; // warm-up
      editMs.push(ms);
      restarts.push(restarted);
    }
  } finally {
    await hub.dispose();
  }

  const start1 = median(oneMs);
  const start10 = median(tenMs);
  const serial10 = median(serialMs);
  const edit = median(editMs);
  return {
    title: `Your own servers through McpHub (SDK echo server over stdio; medians of ${runs} starts and ${edits} edits)`,
    header: ['what', 'time', 'vs one server starting'],
    rows: [
      ['start 1 configured stdio server → ready', fmtMs(start1), '-'],
      [`start ${n} one after another (each after the last is ready)`, fmtMs(serial10), fmtRatio(ratio(serial10, start1))],
      [`start ${n} configured stdio servers in parallel → all ready`, fmtMs(start10), fmtRatio(ratio(start10, start1))],
      [`config edit → the changed server ready again (${n} running)`, fmtMs(edit), fmtRatio(ratio(edit, start1))],
    ],
    notes: [
      `ready = initialize and tools/list answered. A start is mostly CPU (node loading the SDK), so ${n} at once cannot beat ${n}.00x / free cores: ` +
        `${(n / cpus().length).toFixed(2)}x on an idle ${cpus().length}-core machine; the load average was ${load.toFixed(1)} when this section began`,
      `edit: from writing the file (one server's env changed) through loadConfigFiles + resolveServers + McpHub.update until that server answered tools/list; servers restarted per edit: ${[...new Set(restarts)].join(', ')} (of ${n})`,
      "the extension adds its file watcher's 150 ms debounce (src/vscode/servers/config-watcher.ts) before this; the CLI reads its files once per run",
    ],
    data: { n, runs, edits, loadAverage: load, startOneMs: oneMs, startTenMs: tenMs, startTenSerialMs: serialMs, editMs, restarts },
  };
}
