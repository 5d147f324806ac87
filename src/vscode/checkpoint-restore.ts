import * as vscode from 'vscode';
import type { ShadowGit } from '../core/checkpoint/shadow-git';
import type { Checkpoint } from '../core/checkpoint/turn-checkpoint';

const SHOWN = 12;

function listed(paths: string[]): string {
  const shown = paths.slice(0, SHOWN).map((p) => `  ${p}`);
  if (paths.length > SHOWN) shown.push(`  … and ${paths.length - SHOWN} more`);
  return shown.join('\n');
}

/**
 * "Restore files to before this turn": says which files will change (and which cannot, having
 * been changed since by someone else), asks, restores. Returns what to tell the chat, or
 * undefined when the person said no.
 */
export async function restoreCheckpoint(git: ShadowGit, checkpoint: Checkpoint): Promise<string | undefined> {
  const plan = await git.plan(checkpoint.before, checkpoint.after);
  if (plan.restore.length === 0) {
    return `Nothing to restore: every file this turn changed has been changed again since (${plan.skip.join(', ')}), so they were left as they are.`;
  }
  const detail = [
    `These files go back to how they were before the turn (a file it created is removed):\n${listed(plan.restore)}`,
    plan.skip.length > 0 ? `Left as they are, because they changed again after the turn:\n${listed(plan.skip)}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  const n = plan.restore.length;
  const answer = await vscode.window.showWarningMessage(`Restore ${n} file${n === 1 ? '' : 's'} to before this turn?`, { modal: true, detail }, 'Restore');
  if (answer !== 'Restore') return undefined;
  const done = await git.restore(checkpoint.before, checkpoint.after);
  const parts = [`Restored ${done.restored.length} file${done.restored.length === 1 ? '' : 's'} to before the turn: ${done.restored.join(', ')}.`];
  if (done.skipped.length > 0) parts.push(`Left as they are (changed since by someone else): ${done.skipped.join(', ')}.`);
  return parts.join(' ');
}
