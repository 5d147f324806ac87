import * as vscode from 'vscode';
import type { ShadowGit } from '../../core/checkpoint/shadow-git';
import { notCoveredNote } from '../../common/checkpoint-coverage';
import type { ChatEvent } from '../../common/protocol';

const SHOWN = 12;

/** Paths as lines of a dialog's detail, the first dozen, then how many more. */
export function listed(paths: string[]): string {
  const shown = paths.slice(0, SHOWN).map((p) => `  ${p}`);
  if (paths.length > SHOWN) shown.push(`  … and ${paths.length - SHOWN} more`);
  return shown.join('\n');
}

/**
 * "Restore files to before this turn" (or a session's run): says which files will change (and which cannot, having
 * been changed since by someone else, or being too big for the checkpoint), asks, restores.
 * Returns what to tell the chat, or undefined when the person said no.
 */
export async function restoreCheckpoint(
  git: ShadowGit,
  checkpoint: Extract<ChatEvent, { kind: 'checkpoint' }>,
  /** What the checkpoint undoes, in the dialog's words: a chat's turn, or a session's run. */
  what: 'turn' | 'run' = 'turn',
): Promise<string | undefined> {
  const plan = await git.plan(checkpoint.before, checkpoint.after);
  const notCovered = checkpoint.notCovered?.length ? notCoveredNote(checkpoint.notCovered, checkpoint.notCoveredCount) : '';
  if (plan.restore.length === 0) {
    const changed =
      plan.skip.length > 0
        ? `every file this ${what} changed has been changed again since (${plan.skip.join(', ')}), so they were left as they are.`
        : `this checkpoint holds no file the ${what} changed.`;
    return [`Nothing to restore: ${changed}`, notCovered].filter(Boolean).join(' ');
  }
  const detail = [
    `These files go back to how they were before the ${what} (a file it created is removed):\n${listed(plan.restore)}`,
    plan.skip.length > 0 ? `Left as they are, because they changed again after the ${what}:\n${listed(plan.skip)}` : '',
    notCovered,
  ]
    .filter(Boolean)
    .join('\n\n');
  const n = plan.restore.length;
  const answer = await vscode.window.showWarningMessage(`Restore ${n} file${n === 1 ? '' : 's'} to before this ${what}?`, { modal: true, detail }, 'Restore');
  if (answer !== 'Restore') return undefined;
  const done = await git.restore(checkpoint.before, checkpoint.after);
  const parts = [`Restored ${done.restored.length} file${done.restored.length === 1 ? '' : 's'} to before the ${what}: ${done.restored.join(', ')}.`];
  if (done.skipped.length > 0) parts.push(`Left as they are (changed since by someone else): ${done.skipped.join(', ')}.`);
  if (notCovered) parts.push(notCovered);
  return parts.join(' ');
}
