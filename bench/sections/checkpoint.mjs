// A turn's checkpoint (src/core/checkpoint) when the turn writes one 300 MiB file next to a small edit, and when
// the workspace's .gitignore says `!node_modules/`: the time of the turn's two snapshots and what the store grew
// by, with the limits (snapshot-scope.ts) and with them off (what it did before).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, openSync, closeSync, writeSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../lib/setup.mjs';
import { fmtBytes, fmtMs, fmtRatio, ratio } from '../lib/stats.mjs';

const MIB = 1024 * 1024;
const BUNDLE = join(ROOT, 'out', 'bench', 'checkpoint.cjs');
const OFF = { maxFileBytes: Infinity, maxTotalBytes: Infinity };

async function loadCheckpoint() {
  const esbuild = await import('esbuild');
  await esbuild.build({
    stdin: {
      contents: "export { ShadowGit } from './src/core/checkpoint/shadow-git'; export { TurnCheckpoint } from './src/core/checkpoint/turn-checkpoint';",
      resolveDir: ROOT,
      loader: 'ts',
      sourcefile: 'bench-checkpoint.ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: BUNDLE,
    logLevel: 'warning',
  });
  return createRequire(import.meta.url)(BUNDLE);
}

/** Random bytes, so git's compression cannot make the file small (as a build output or a dump would not be). */
function writeRandom(path, bytes) {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(4 * MIB);
  try {
    for (let done = 0; done < bytes; done += chunk.length) {
      for (let i = 0; i < chunk.length; i += 4) chunk.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, i);
      writeSync(fd, chunk, 0, Math.min(chunk.length, bytes - done));
    }
  } finally {
    closeSync(fd);
  }
}

const duBytes = (dir) => Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);

/** Files the store's latest snapshot holds. */
function snapshotFiles(store, ws) {
  const out = execFileSync('git', ['ls-tree', '-r', '--name-only', 'HEAD'], {
    cwd: ws,
    env: { ...process.env, GIT_DIR: store, GIT_WORK_TREE: ws },
    encoding: 'utf8',
  });
  return out.split('\n').filter(Boolean).length;
}

/** One turn on a fresh workspace and store: `setup` before it, `change` during it. */
async function measureTurn(lib, dir, limits, setup, change) {
  const ws = join(dir, 'ws');
  const store = join(dir, 'store.git');
  mkdirSync(ws, { recursive: true });
  setup(ws);
  const shadow = new lib.ShadowGit(store, ws, limits);
  const turn = new lib.TurnCheckpoint(shadow, (m) => {
    throw new Error(m);
  });
  // A first turn makes the store, so the measured one is an ordinary turn.
  await new lib.TurnCheckpoint(shadow, () => undefined).begin();
  // The two snapshots are timed, not the turn's own writing.
  let t0 = performance.now();
  await turn.begin();
  let ms = performance.now() - t0;
  change(ws);
  t0 = performance.now();
  const cp = await turn.end();
  ms += performance.now() - t0;
  return { ms, storeBytes: duBytes(store), files: snapshotFiles(store, ws), notCovered: cp?.notCovered?.length ?? 0 };
}

export async function benchCheckpoint({ temp }) {
  const lib = await loadCheckpoint();
  const big = (ws) => {
    writeFileSync(join(ws, 'notes.md'), 'v2\n');
    writeRandom(join(ws, 'dump.bin'), 300 * MIB);
  };
  const smallWs = (ws) => writeFileSync(join(ws, 'notes.md'), 'v1\n');
  const negated = (ws) => {
    writeFileSync(join(ws, '.gitignore'), '!node_modules/\n');
    // 2,000 files of 4 KiB in 200 packages: a small node_modules.
    for (let p = 0; p < 200; p++) {
      mkdirSync(join(ws, 'node_modules', `pkg-${p}`), { recursive: true });
      for (let f = 0; f < 10; f++) writeFileSync(join(ws, 'node_modules', `pkg-${p}`, `f${f}.js`), `// ${p}/${f}\n`.padEnd(4096, 'x'));
    }
  };
  const edit = (ws) => writeFileSync(join(ws, 'app.js'), 'app\n');
  const runs = [
    ['300 MiB file + one edit: limits on', () => measureTurn(lib, temp('cp-big-on'), undefined, smallWs, big)],
    ['300 MiB file + one edit: limits off (before)', () => measureTurn(lib, temp('cp-big-off'), OFF, smallWs, big)],
    ['`!node_modules/` (2,000 files) + one edit: exclusions win', () => measureTurn(lib, temp('cp-nm-on'), undefined, negated, edit)],
  ];
  const results = [];
  for (const [label, run] of runs) results.push({ label, ...(await run()) });
  // Before the fix the negation let node_modules in: the same turn as it was, with the store holding the packages.
  const nmBefore = await measureNegatedBefore(lib, temp('cp-nm-off'), negated, edit);
  results.push({ label: '`!node_modules/` (2,000 files) + one edit: as before (node_modules copied)', ...nmBefore });
  const [on, off] = results;
  return {
    title: 'Checkpoints: a turn that writes a 300 MiB file, and a .gitignore with `!node_modules/` (one turn: both snapshots)',
    header: ['turn', 'time', 'store after', 'files in the snapshot', 'named not covered'],
    rows: results.map((r) => [r.label, fmtMs(r.ms), fmtBytes(r.storeBytes), String(r.files), String(r.notCovered)]),
    notes: [`300 MiB row, limits on vs off: time ${fmtRatio(ratio(on.ms, off.ms))}, store ${fmtRatio(ratio(on.storeBytes, off.storeBytes))}`],
    data: { results },
  };
}

/**
 * What the old code did with `!node_modules/`: `git add --all` honours the negation over info/exclude. Measured
 * by running that command against the same store layout, since the old snapshot code is gone.
 */
async function measureNegatedBefore(lib, dir, setup, change) {
  const ws = join(dir, 'ws');
  const store = join(dir, 'store.git');
  mkdirSync(ws, { recursive: true });
  setup(ws);
  await new lib.TurnCheckpoint(new lib.ShadowGit(store, ws), () => undefined).begin();
  const env = {
    ...process.env,
    GIT_DIR: store,
    GIT_WORK_TREE: ws,
    GIT_AUTHOR_NAME: 'b',
    GIT_AUTHOR_EMAIL: 'b@b',
    GIT_COMMITTER_NAME: 'b',
    GIT_COMMITTER_EMAIL: 'b@b',
  };
  const snapshot = () => {
    execFileSync('git', ['add', '--all', '--', '.'], { cwd: ws, env });
    execFileSync('git', ['commit', '-q', '--allow-empty', '--no-verify', '-m', 's'], { cwd: ws, env });
  };
  let t0 = performance.now();
  snapshot();
  let ms = performance.now() - t0;
  change(ws);
  t0 = performance.now();
  snapshot();
  ms += performance.now() - t0;
  return { ms, storeBytes: duBytes(store), files: snapshotFiles(store, ws), notCovered: 0 };
}
