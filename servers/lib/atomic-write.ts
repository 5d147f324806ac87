import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { open, realpath, rename, unlink, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { assertOpenedInside, DIR_FLAGS, inOpenDir, PROC_FD } from '../../src/common/confined-fs';
import { isInside } from '../../src/common/path-inside';
import { ToolError } from '../../src/common/tool-error';

/**
 * The temp file sits next to the target (rename is atomic only within one file system) and is
 * created with O_EXCL, which never follows a symlink planted under the temp name.
 */
function tempNameFor(target: string): string {
  return `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/** How to name the temp file and the target: through a checked folder handle, or by path. */
interface Place {
  temp: string;
  target: string;
  close: () => Promise<void> | void;
}

function outside(target: string): ToolError {
  return new ToolError(
    `The folder of "${basename(target)}" was moved or replaced by a symlink leading outside the workspace while ` +
      'it was being written; nothing was written. Try again once the folder stops changing.',
  );
}

/**
 * With `root`, the folder is opened (never through a symlink at its last step) and checked to be
 * inside `root`, and the temp file and the rename go through that handle: a folder swapped for a
 * symlink meanwhile cannot send the write elsewhere.
 */
async function placeAsync(target: string, root: string | undefined): Promise<Place> {
  const dir = dirname(target);
  const name = tempNameFor(target);
  if (root === undefined || !PROC_FD) {
    if (root !== undefined && !isInside(root, await realpath(dir))) throw outside(target);
    return { temp: join(dir, name), target, close: () => undefined };
  }
  let handle: FileHandle;
  try {
    handle = await open(dir, DIR_FLAGS);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') throw outside(target);
    throw err;
  }
  try {
    assertOpenedInside(handle.fd, root, dir, basename(target));
  } catch (err) {
    await handle.close();
    throw err instanceof ToolError ? outside(target) : err;
  }
  const fd = handle.fd;
  return {
    temp: inOpenDir(fd, dir, name),
    target: inOpenDir(fd, dir, basename(target)),
    close: () => handle.close(),
  };
}

function placeSync(target: string, root: string | undefined): Place {
  const dir = dirname(target);
  const name = tempNameFor(target);
  if (root === undefined || !PROC_FD) return { temp: join(dir, name), target, close: () => undefined };
  let fd: number;
  try {
    fd = openSync(dir, DIR_FLAGS);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') throw outside(target);
    throw err;
  }
  try {
    assertOpenedInside(fd, root, dir, basename(target));
  } catch (err) {
    closeSync(fd);
    throw err instanceof ToolError ? outside(target) : err;
  }
  return { temp: inOpenDir(fd, dir, name), target: inOpenDir(fd, dir, basename(target)), close: () => closeSync(fd) };
}

/**
 * Replaces `target` with `data` so that a reader, or a crash at any moment, sees either the old
 * file or the new one, never a part. `target` must already be sandbox-checked; when it is a
 * symlink the rename replaces the link itself, never the file it points to. `root` (the
 * workspace) confines the write to it even when a folder is swapped while it runs.
 */
export async function writeFileAtomic(target: string, data: string | Uint8Array, keepMode?: number, root?: string): Promise<void> {
  const place = await placeAsync(target, root);
  try {
    const handle = await open(place.temp, 'wx', 0o666);
    try {
      try {
        // An overwritten file keeps its permissions (an executable script stays executable).
        if (keepMode !== undefined) await handle.chmod(keepMode);
        await handle.writeFile(data);
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await rename(place.temp, place.target);
    } catch (err) {
      await unlink(place.temp).catch(() => undefined);
      throw err;
    }
  } finally {
    await place.close();
  }
}

/** The same, synchronously: for flushing on process exit, when no promise will run. */
export function writeFileAtomicSync(target: string, data: Uint8Array, root?: string): void {
  const place = placeSync(target, root);
  try {
    const fd = openSync(place.temp, 'wx', 0o666);
    try {
      try {
        let written = 0;
        while (written < data.length) written += writeSync(fd, data, written);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(place.temp, place.target);
    } catch (err) {
      try {
        unlinkSync(place.temp);
      } catch {
        // already gone
      }
      throw err;
    }
  } finally {
    place.close();
  }
}
