import type { ChatEvent } from '../../common/protocol';
import type { ShadowGit, Snapshot } from './shadow-git';
import type { NotCovered } from './snapshot-scope';
import { messageOf } from '../../node/error-message';

/** A turn's file changes, undoable: the snapshots before and after it, and the paths between them. */
export interface Checkpoint {
  before: string;
  after: string;
  files: string[];
  /** Files the turn changed that are too big to keep (snapshot-scope.ts): Restore leaves them as they are. */
  notCovered: NotCovered[];
}

/**
 * The checkpoint of one turn. The "before" snapshot is taken only when the turn is about to
 * change something (a turn that only reads costs nothing), at most once; a snapshot that fails
 * (no git on the machine) only means no Restore for this turn, never a failed turn.
 */
export class TurnCheckpoint {
  private before: Promise<Snapshot | undefined> | undefined;

  constructor(
    private readonly git: ShadowGit,
    private readonly warn: (message: string) => void,
  ) {}

  begin(): Promise<void> {
    this.before ??= this.git.snapshot('before a turn').catch((err: unknown) => {
      this.warn(`no checkpoint for this turn: ${messageOf(err)}`);
      return undefined;
    });
    return this.before.then(() => undefined);
  }

  /** After the turn: what it changed, if it changed anything (kept or not). */
  async end(): Promise<Checkpoint | undefined> {
    const before = await this.before;
    if (!before) return undefined;
    try {
      const after = await this.git.snapshot('after a turn', new Set(before.left.map((f) => f.path)));
      const files = await this.git.changed(before.hash, after.hash);
      const left = await this.git.notCovered(before, after);
      return files.length > 0 || left.length > 0 ? { before: before.hash, after: after.hash, files, notCovered: left } : undefined;
    } catch (err) {
      this.warn(`no checkpoint for this turn: ${messageOf(err)}`);
      return undefined;
    }
  }
}

/** The protocol's limit on the files listed as not covered; more are counted. */
const MAX_NOT_COVERED = 1_000;

/** Files not covered are listed up to what the protocol carries, and counted. */
export function checkpointEvent(turnId: string, c: Checkpoint): Extract<ChatEvent, { kind: 'checkpoint' }> {
  const { notCovered, ...rest } = c;
  if (notCovered.length === 0) return { kind: 'checkpoint', turnId, ...rest };
  return {
    kind: 'checkpoint',
    turnId,
    ...rest,
    notCovered: notCovered.slice(0, MAX_NOT_COVERED),
    ...(notCovered.length > MAX_NOT_COVERED ? { notCoveredCount: notCovered.length } : {}),
  };
}
