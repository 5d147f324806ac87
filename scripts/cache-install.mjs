// Installs an npm package into a cache folder outside the repo (code-server, the conformance suite's Node 22):
// into a sibling folder first, renamed into place once complete, so an interrupted install is simply redone and
// two runs installing at once both end with one whole folder.
import { spawnSync } from 'node:child_process';
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
    const r = spawnSync('npm', args, { cwd: partial, stdio: 'inherit', env: o.env ?? process.env });
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
