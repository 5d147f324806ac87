import { open, realpath, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { assertOpenedInside, DIR_FLAGS, inOpenDir, PROC_FD } from '../../src/node/confined-fs';
import { isInside } from '../../src/node/path-inside';
import { ToolError } from '../../src/node/tool-error';

/** The folder of a file, opened and checked to be inside the workspace: names beside the file go through it. */
export interface CheckedFolder {
  /** `name` in that folder, resolved through the checked handle (not through its path, which may have changed). */
  at: (name: string) => string;
  close: () => Promise<void>;
}

function movedOutside(target: string): ToolError {
  return new ToolError(
    `The folder of "${basename(target)}" was moved or replaced by a symlink leading outside the workspace while ` +
      'it was being written; nothing was written. Try again once the folder stops changing.',
  );
}

/**
 * With `root`, the folder of `target` is opened (never through a symlink at its last step) and
 * checked to be inside `root`; files created, renamed or removed through `at()` stay in that folder
 * even when it is swapped for a symlink meanwhile. Without /proc, the folder's path is checked instead.
 */
export async function openFolderOf(target: string, root: string | undefined): Promise<CheckedFolder> {
  const dir = dirname(target);
  if (root === undefined || !PROC_FD) {
    if (root !== undefined && !isInside(root, await realpath(dir))) throw movedOutside(target);
    return { at: (name) => join(dir, name), close: async () => undefined };
  }
  let handle: FileHandle;
  try {
    handle = await open(dir, DIR_FLAGS);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') throw movedOutside(target);
    throw err;
  }
  try {
    assertOpenedInside(handle.fd, root, dir, basename(target));
  } catch (err) {
    await handle.close();
    throw err instanceof ToolError ? movedOutside(target) : err;
  }
  const fd = handle.fd;
  return { at: (name) => inOpenDir(fd, dir, name), close: () => handle.close() };
}
