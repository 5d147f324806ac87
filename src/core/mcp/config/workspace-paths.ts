import { realpathSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { isInside } from '../../../node/path-inside';

/**
 * Whether `path` is inside the workspace folder, both as written and with every symlink resolved,
 * so neither `..` nor a symlink inside the workspace can point a workspace-defined server at files
 * elsewhere. A path that does not exist yet is judged by its nearest existing parent.
 */
export function isInsideWorkspace(workspaceFolder: string, path: string): boolean {
  const root = resolve(workspaceFolder);
  const target = resolve(root, path);
  return isInside(root, target) && isInside(real(root), real(target));
}

function real(path: string): string {
  for (let p = path; ; p = dirname(p)) {
    try {
      return join(realpathSync(p), relative(p, path));
    } catch {
      if (dirname(p) === p) return path;
    }
  }
}
