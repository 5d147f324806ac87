import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The checkout's root: the nearest folder above this bundle holding package.json. */
export function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${__dirname}`);
    dir = parent;
  }
  return dir;
}
