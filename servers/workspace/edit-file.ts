import { constants } from 'node:fs';
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { guarded, textResult, ToolError } from '../lib/results';
import type { Sandbox } from '../../src/node/sandbox';
import { writeFileAtomic } from '../lib/atomic-write';
import { formatBytes } from '../../src/node/byte-size';
import { looksBinary } from '../../src/node/file-kind';
import { countLines, MAX_WRITE_BYTES, resolveWrite } from './write-file';
import { nearestLineHint } from './similar-line';
import { withFileLock } from './file-lock';
import { assertReviewedBase, expectedBase } from './reviewed-base';
import { openInside } from '../../src/node/confined-fs';

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

function occurrences(haystack: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

async function readText(root: string, real: string, rel: string): Promise<string> {
  const fh = await openInside(root, real, OPEN_FLAGS, rel);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new ToolError(`"${rel}" is not a regular file.`);
    if (st.size > MAX_WRITE_BYTES) {
      throw new ToolError(`"${rel}" is ${formatBytes(st.size)}, over the ${formatBytes(MAX_WRITE_BYTES)} edit_file limit; use run_code for files this big.`);
    }
    const buf = await fh.readFile();
    if (looksBinary(buf)) throw new ToolError(`"${rel}" is a binary file; edit_file changes text files only.`);
    return buf.toString('utf8');
  } finally {
    await fh.close();
  }
}

/** Where old_text occurs exactly once, matching the file's line endings; a clear error otherwise. */
function locate(text: string, old_text: string, new_text: string, rel: string): { at: number; oldText: string; newText: string } {
  let oldText = old_text;
  let newText = new_text;
  let found = occurrences(text, oldText);
  // A model writes "\n"; a Windows file holds "\r\n". Match the file's line endings.
  if (found.length === 0 && text.includes('\r\n') && /(^|[^\r])\n/.test(oldText)) {
    oldText = oldText.replace(/\r?\n/g, '\r\n');
    newText = newText.replace(/\r?\n/g, '\r\n');
    found = occurrences(text, oldText);
  }
  const [at] = found;
  if (at === undefined) {
    throw new ToolError(`old_text was not found in "${rel}".${nearestLineHint(text, old_text)} Read the file again and copy the text exactly.`);
  }
  if (found.length > 1) {
    const lines = found.slice(0, 10).map((i) => lineAt(text, i));
    const more = found.length > 10 ? ', ...' : '';
    throw new ToolError(
      `old_text occurs ${found.length} times in "${rel}" (at lines ${lines.join(', ')}${more}); ` +
        'add surrounding lines to old_text so that it matches exactly once.',
    );
  }
  if (oldText === newText) throw new ToolError('old_text and new_text are the same; nothing to change.');
  return { at, oldText, newText };
}

export function registerEditFile(server: McpServer, sandbox: Sandbox): void {
  server.registerTool(
    'edit_file',
    {
      title: 'Edit file',
      description:
        'Replace one exact piece of text in an existing workspace file. old_text must occur exactly once ' +
        '(include a few surrounding lines to make it unique); whitespace and line breaks must match. Atomic write.',
      inputSchema: {
        path: z.string().min(1).describe('File path, relative to the workspace.'),
        old_text: z.string().min(1).describe('The exact text to replace; it must occur exactly once in the file.'),
        new_text: z.string().describe('The text to put in its place (empty to delete it).'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    guarded('edit_file', async ({ path, old_text, new_text }, extra) => {
      const resolved = await resolveWrite(sandbox, path, false);
      if (!resolved.exists) throw new ToolError(`"${path}" does not exist; use write_file to create it.`);
      // Read, change and write under the file's lock: concurrent edits of one file all land.
      const { target, text, at, oldText, newText, updated } = await withFileLock(resolved.real, async () => {
        const target = await resolveWrite(sandbox, path, false);
        if (!target.exists) throw new ToolError(`"${path}" does not exist; use write_file to create it.`);
        await assertReviewedBase(target.real, target.rel, expectedBase(extra._meta));
        const text = await readText(sandbox.root, target.real, target.rel);
        const { at, oldText, newText } = locate(text, old_text, new_text, target.rel);
        const updated = text.slice(0, at) + newText + text.slice(at + oldText.length);
        await writeFileAtomic(target.real, updated, target.mode, sandbox.root);
        return { target, text, at, oldText, newText, updated };
      });
      const line = lineAt(text, at);
      const oldLines = countLines(oldText);
      const newLines = countLines(newText);
      return textResult(
        `${target.rel}: replaced ${oldLines} line${oldLines === 1 ? '' : 's'} at line ${line} with ${newLines} line${newLines === 1 ? '' : 's'} ` +
          `(${formatBytes(Buffer.byteLength(updated, 'utf8'))} now)`,
        { path: target.rel, line, removed_lines: oldLines, added_lines: newLines },
      );
    }),
  );
}
