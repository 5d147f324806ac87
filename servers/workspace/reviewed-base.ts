import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { ToolError } from '../lib/results';
import { ABSENT, contentHash, EXPECT_BASE } from '../../src/node/reviewed-edit';

/** The base a call's `_meta` says the person reviewed, if any. */
export function expectedBase(meta: unknown): string | undefined {
  const value = (meta as Record<string, unknown> | undefined)?.[EXPECT_BASE];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Called under the file's lock, right before writing: the file must still be the one the person
 * reviewed (or still not exist). Nothing is written otherwise.
 */
export async function assertReviewedBase(real: string, rel: string, expected: string | undefined): Promise<void> {
  if (expected === undefined) return;
  let now: string;
  try {
    // Non-blocking and no symlinks: a FIFO put in the file's place must not hang the write.
    const fh = await open(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
    try {
      now = (await fh.stat()).isFile() ? contentHash(await fh.readFile()) : 'not a file';
    } finally {
      await fh.close();
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ELOOP') throw err;
    now = code === 'ENOENT' ? ABSENT : 'a symlink';
  }
  if (now === expected) return;
  const what = now === ABSENT ? 'was deleted' : expected === ABSENT ? 'was created by someone else' : 'was changed on disk';
  throw new ToolError(`"${rel}" ${what} after the person reviewed this change, so nothing was written. Read the file again and propose the change anew.`);
}
