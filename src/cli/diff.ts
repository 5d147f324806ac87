import { createTwoFilesPatch } from 'diff';
import type { ProposedEdit } from '../core/tool-call/proposed-edit';
import { escapeControls } from './escape';

/** A review on a terminal is read, not scrolled through: past this the rest is counted, not shown. */
const MAX_LINES = 120;

/**
 * A file change as a unified diff for the terminal's approval question (the extension shows the
 * same change in VS Code's diff editor): removed lines red, added lines green when colour is on.
 * Every line of file content goes through escapeControls: a file can hold escape sequences.
 */
export function editDiff(edit: ProposedEdit, color: boolean): string {
  const patch = createTwoFilesPatch(`a/${edit.rel}`, `b/${edit.rel}`, edit.before ?? '', edit.after, edit.before === undefined ? '(new file)' : '', '', {
    context: 3,
  });
  // Without the patch's own "Index:" and "====" header lines (not every version writes both).
  const lines = patch.split('\n').filter((l, i, all) => !/^(Index: |={10,})/.test(l) && (l !== '' || i < all.length - 1));
  const shown = lines.slice(0, MAX_LINES).map((line) => paint(escapeControls(line), color));
  if (lines.length > MAX_LINES) shown.push(`… ${lines.length - MAX_LINES} more lines of diff`);
  return shown.join('\n');
}

function paint(line: string, color: boolean): string {
  if (!color) return line;
  if (line.startsWith('+++') || line.startsWith('---')) return `\x1b[1m${line}\x1b[0m`;
  if (line.startsWith('+')) return `\x1b[32m${line}\x1b[0m`;
  if (line.startsWith('-')) return `\x1b[31m${line}\x1b[0m`;
  if (line.startsWith('@@')) return `\x1b[36m${line}\x1b[0m`;
  return line;
}
