import { constants, realpathSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve, relative, sep } from 'node:path';
import { looksBinary } from '../../node/file-kind';
import { isInside } from '../../node/path-inside';
import { ABSENT, contentHash } from '../../node/reviewed-edit';
import type { HubTool } from '../mcp/types';
import { countLines } from '../agent/text-cut';

/** What a write_file / edit_file call would do to one file, for the person to review as a diff. */
export interface ProposedEdit {
  /** Workspace-relative, with `/`. */
  rel: string;
  /** The file's real path. */
  abs: string;
  /** The file's text now; undefined for a new file. */
  before: string | undefined;
  /** The file's text after the call. */
  after: string;
  /** contentHash of the file now, or ABSENT: sent with the call so a file changed since is never overwritten. */
  base: string;
  /** "New file, 12 lines." / "Overwrites all 40 lines …" / "Replaces 3 lines at line 10 with 5." */
  summary: string;
  /** write_file over an existing file: everything in it is replaced. */
  overwrites: boolean;
}

/** Past this a diff is no review anyone reads; the card's preview still shows the call. */
const MAX_REVIEW_BYTES = 2 * 1024 * 1024;
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * The change a call of the bundled workspace server's write_file or edit_file would make, worked
 * out from the file on disk; undefined for any other call, or when there is nothing sound to show
 * (a path outside the workspace, a binary or huge file, an old_text that does not match once: the
 * server answers those with its own error).
 */
export async function proposeEdit(workspace: string, tool: HubTool, input: Record<string, unknown>): Promise<ProposedEdit | undefined> {
  if (tool.server !== 'workspace' || (tool.tool.name !== 'write_file' && tool.tool.name !== 'edit_file')) return undefined;
  if (typeof input.path !== 'string' || input.path.includes('\0')) return undefined;
  let root: string;
  try {
    root = realpathSync(workspace);
  } catch {
    return undefined;
  }
  const abs = resolve(root, input.path);
  if (!isInside(root, abs) || abs === root) return undefined;
  const current = await readCurrent(root, abs);
  if (current === 'unreviewable') return undefined;
  const rel = relative(root, current?.real ?? abs)
    .split(sep)
    .join('/');
  const before = current?.text;
  const base = current ? contentHash(current.bytes) : ABSENT;
  if (tool.tool.name === 'write_file') {
    if (typeof input.content !== 'string') return undefined;
    const after = input.content;
    const summary =
      before === undefined
        ? `New file, ${lines(countLines(after))}.`
        : `Overwrites all ${lines(countLines(before))} of ${rel} (${lines(countLines(after))} after).`;
    return { rel, abs: current?.real ?? abs, before, after, base, summary, overwrites: before !== undefined };
  }
  if (before === undefined || typeof input.old_text !== 'string' || typeof input.new_text !== 'string' || input.old_text === '') return undefined;
  const found = locateOnce(before, input.old_text, input.new_text);
  if (!found) return undefined;
  const after = before.slice(0, found.at) + found.newText + before.slice(found.at + found.oldText.length);
  const line = countLines(before.slice(0, found.at) + 'x');
  const summary = `Replaces ${lines(countLines(found.oldText))} at line ${line} with ${countLines(found.newText)}.`;
  return { rel, abs: current!.real, before, after, base, summary, overwrites: false };
}

function lines(n: number): string {
  return `${n} line${n === 1 ? '' : 's'}`;
}

/** The file as it is now, undefined when there is none, 'unreviewable' when it cannot be shown. */
async function readCurrent(root: string, abs: string): Promise<{ real: string; bytes: Buffer; text: string } | undefined | 'unreviewable'> {
  let real: string;
  try {
    real = realpathSync(abs);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : 'unreviewable';
  }
  if (!isInside(root, real)) return 'unreviewable';
  try {
    const fh = await open(real, READ_FLAGS);
    try {
      const st = await fh.stat();
      if (!st.isFile() || st.size > MAX_REVIEW_BYTES) return 'unreviewable';
      const bytes = await fh.readFile();
      if (looksBinary(bytes)) return 'unreviewable';
      return { real, bytes, text: bytes.toString('utf8') };
    } finally {
      await fh.close();
    }
  } catch {
    return 'unreviewable';
  }
}

/** edit_file's own matching: old_text exactly once, with the file's line endings. */
function locateOnce(text: string, oldText: string, newText: string): { at: number; oldText: string; newText: string } | undefined {
  const once = (needle: string): number | undefined => {
    const first = text.indexOf(needle);
    return first !== -1 && text.indexOf(needle, first + needle.length) === -1 ? first : undefined;
  };
  const at = once(oldText);
  if (at !== undefined) return { at, oldText, newText };
  if (!text.includes('\r\n') || !/(^|[^\r])\n/.test(oldText)) return undefined;
  const crlfOld = oldText.replace(/\r?\n/g, '\r\n');
  const crlfAt = once(crlfOld);
  return crlfAt === undefined ? undefined : { at: crlfAt, oldText: crlfOld, newText: newText.replace(/\r?\n/g, '\r\n') };
}
