import AsyncLock from 'async-lock';

/**
 * A host may run several tool calls of one reply at once: two edit_file calls on one file would
 * each read the old text and the second write would undo the first. Every read-modify-write of a
 * file holds the lock for its real path, so calls on one file run one after another.
 */
const locks = new AsyncLock({ maxPending: 10_000 });

export function withFileLock<T>(real: string, work: () => Promise<T>): Promise<T> {
  return locks.acquire(real, work);
}
