/**
 * What a checkpoint keeps, and the sentence that says which changed files it does not: shown under the
 * turn in the chat and in the Restore dialog, so a person knows a big file will not come back.
 */
import type { NotCoveredFile } from './protocol';

const MIB = 1024 * 1024;

/** A file over this is left out of a checkpoint; past the total, one snapshot copies no more. */
export const CHECKPOINT_LIMITS = { maxFileBytes: 10 * MIB, maxTotalBytes: 100 * MIB } as const;

const SHOWN = 5;

/** "Not in the checkpoint, so Restore leaves it as it is: data.bin (300 MiB). ..." */
export function notCoveredNote(files: readonly NotCoveredFile[], count = files.length): string {
  const shown = files.slice(0, SHOWN).map(describe);
  const more = count > shown.length ? `, and ${count - shown.length} more` : '';
  const one = count === 1;
  return (
    `Not in the checkpoint, so Restore leaves ${one ? 'it as it is' : 'them as they are'}: ${shown.join(', ')}${more}. ` +
    `A checkpoint keeps files up to ${CHECKPOINT_LIMITS.maxFileBytes / MIB} MiB, ${CHECKPOINT_LIMITS.maxTotalBytes / MIB} MiB a turn.`
  );
}

function describe(f: NotCoveredFile): string {
  // Only a file left out for its size is big enough for MiB to say something; one past the total may be small.
  const size = f.reason === 'size' ? `${Math.round(f.bytes / MIB).toLocaleString('en-US')} MiB` : 'past the total';
  return `${f.path} (${size}${f.deleted ? ', deleted by the turn' : ''})`;
}
