import { createHash } from 'node:crypto';

/**
 * A write_file / edit_file call's `_meta` key: the sha256 (hex) of the file the person reviewed
 * the change against, or ABSENT when they reviewed it as a new file. The workspace server refuses
 * the write when the file on disk is no longer that one, so a change made by someone else after
 * the review is never overwritten unseen.
 */
export const EXPECT_BASE = 'mcpAgent/expectBase';
export const ABSENT = 'absent';

export function contentHash(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}
