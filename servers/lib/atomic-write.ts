import { open, rename, unlink } from 'node:fs/promises';
import { basename } from 'node:path';
import { openFolderOf } from './checked-folder';

/**
 * The temp file sits next to the target (rename is atomic only within one file system) and is
 * created with O_EXCL, which never follows a symlink planted under the temp name.
 */
function tempNameFor(target: string): string {
  // node:crypto is loaded at the first write, not with the server, which would carry it idle (bench/README.md, `start`).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- on first use, on purpose (the bundle is CommonJS)
  const { randomBytes } = require('node:crypto') as typeof import('node:crypto');
  return `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/**
 * Replaces `target` with `data` so that a reader, or a crash at any moment, sees either the old
 * file or the new one, never a part. `target` must already be sandbox-checked; when it is a
 * symlink the rename replaces the link itself, never the file it points to. `root` (the
 * workspace) confines the write to it even when a folder is swapped while it runs.
 */
export async function writeFileAtomic(target: string, data: string | Uint8Array, keepMode?: number, root?: string): Promise<void> {
  const folder = await openFolderOf(target, root);
  const temp = folder.at(tempNameFor(target));
  try {
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
      await rename(temp, folder.at(basename(target)));
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw err;
    }
  } finally {
    await folder.close();
  }
}
