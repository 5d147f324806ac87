import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive } from '../../src/node/process-alive';
import { RunCgroup } from './run-cgroup';

/** Every run's temp folder and cgroup is named `mcp-agent-run-<server pid>-…`, so leftovers can be told apart. */
const PREFIX = 'mcp-agent-run-';

export interface RunDirs {
  base: string;
  /** Put first on PYTHONPATH (sitecustomize.py). */
  site: string;
  /** Where figures are saved, to come back as images. */
  figures: string;
  /** matplotlib's config and cache. */
  mpl: string;
  /** TMPDIR when there is no sandbox (the sandbox gives the code a private /tmp). */
  tmp: string;
  /** An empty file the sandbox shows in place of credential files. */
  empty: string;
}

export function makeRunDirs(): RunDirs {
  const base = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
  const dirs = { base, site: join(base, 'site'), figures: join(base, 'figures'), mpl: join(base, 'mpl'), tmp: join(base, 'tmp'), empty: join(base, 'empty') };
  for (const d of [dirs.site, dirs.figures, dirs.mpl, dirs.tmp]) mkdirSync(d);
  writeFileSync(dirs.empty, '', { mode: 0o444 });
  return dirs;
}

export function runCgroupName(): string {
  return `${PREFIX}${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * A server killed mid-run (SIGKILL, a crash) cannot clean up after itself; its runs died with it (the
 * sandbox's parent-death signal), and what they left is removed by the next server that starts.
 */
export function removeLeftoverRuns(): void {
  try {
    for (const name of readdirSync(tmpdir())) {
      const m = new RegExp(`^${PREFIX}(\\d+)-`).exec(name);
      if (m && Number(m[1]) !== process.pid && !processAlive(Number(m[1]))) rmSync(join(tmpdir(), name), { recursive: true, force: true });
    }
  } catch {
    // an unreadable temp folder: nothing to clean
  }
  RunCgroup.removeLeftovers(PREFIX, (pid) => pid === process.pid || processAlive(pid));
}
