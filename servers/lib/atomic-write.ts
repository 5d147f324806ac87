import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/**
 * The temp file sits next to the target (rename is atomic only within one file system) and is
 * created with O_EXCL, which never follows a symlink planted under the temp name.
 */
function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * Replaces `target` with `data` so that a reader, or a crash at any moment, sees either the old
 * file or the new one, never a part. `target` must already be sandbox-checked; when it is a
 * symlink the rename replaces the link itself, never the file it points to.
 */
export async function writeFileAtomic(target: string, data: string | Uint8Array, keepMode?: number): Promise<void> {
  const temp = tempPathFor(target);
  const handle = await open(temp, 'wx', 0o666);
  try {
    try {
      // An overwritten file keeps its permissions (an executable script stays executable).
      if (keepMode !== undefined) await handle.chmod(keepMode);
      await handle.writeFile(data);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}

/** The same, synchronously: for flushing on process exit, when no promise will run. */
export function writeFileAtomicSync(target: string, data: Uint8Array): void {
  const temp = tempPathFor(target);
  const fd = openSync(temp, 'wx', 0o666);
  try {
    try {
      let written = 0;
      while (written < data.length) written += writeSync(fd, data, written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (err) {
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
    throw err;
  }
}
