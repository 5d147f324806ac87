// Installs an npm package into a cache folder outside the repo (code-server, the conformance suite's Node 22):
// into a sibling folder first, renamed into place once complete, so an interrupted install is simply redone and
// two runs installing at once both end with one whole folder.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @param {{ dir: string, spec: string, env?: NodeJS.ProcessEnv, check(dir: string): void,
 *   stamp?: { file: string, text: string }, isInstalled(dir: string): boolean, say(msg: string): void }} o
 *   check throws when what npm installed into the folder is not usable; isInstalled says whether `dir` is done.
 */
export function installIntoCache(o) {
  const partial = `${o.dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  writeFileSync(join(partial, 'package.json'), JSON.stringify({ name: 'mcp-agent-cache', private: true }, null, 2));
  try {
    const args = ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', o.spec];
    o.say(`$ npm ${args.join(' ')}`);
    const ticker = progressTicker(partial, o.spec);
    let r;
    try {
      r = spawnSync('npm', args, { cwd: partial, stdio: 'inherit', env: o.env ?? process.env });
    } finally {
      ticker.kill();
    }
    if (r.status !== 0) throw new Error(`npm install ${o.spec} failed (exit ${r.status ?? r.signal})`);
    o.check(partial);
    if (o.stamp) writeFileSync(join(partial, o.stamp.file), o.stamp.text);
    if (o.isInstalled(o.dir)) {
      rmSync(partial, { recursive: true, force: true }); // another run finished first
    } else {
      rmSync(o.dir, { recursive: true, force: true });
      renameSync(partial, o.dir);
    }
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    throw err;
  }
}

/**
 * npm says next to nothing while it downloads and builds (minutes for code-server): a process of its own (this one
 * is blocked in spawnSync) prints every 15 s how much has arrived, so a first run is never a silent wait.
 */
function progressTicker(dir, spec) {
  const script = `
    const { readdirSync, lstatSync } = require('node:fs');
    const { join } = require('node:path');
    const size = (p) => { try { const s = lstatSync(p); return s.isDirectory() ? readdirSync(p).reduce((n, f) => n + size(join(p, f)), 0) : s.size; } catch { return 0; } };
    const t0 = Date.now();
    setInterval(() => {
      if (process.ppid !== Number(process.argv[3])) process.exit(); // the install's process is gone
      const mb = (size(process.argv[1]) / 1048576).toFixed(0);
      process.stderr.write('[install] ' + process.argv[2] + ': ' + mb + ' MB in place after ' + Math.round((Date.now() - t0) / 1000) + ' s (still going)\\n');
    }, 15000);`;
  return spawn(process.execPath, ['-e', script, dir, spec, String(process.pid)], { stdio: ['ignore', 'ignore', 'inherit'] });
}
