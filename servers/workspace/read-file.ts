import { constants } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { guarded, ToolError } from '../lib/results';
import type { Sandbox } from '../../src/node/sandbox';
import { formatBytes } from '../../src/node/byte-size';
import { detectKind } from '../../src/node/file-kind';
import { readPage } from './line-pager';
import { openInside } from '../../src/node/confined-fs';

const READ_LIMITS = {
  defaultLines: 2000,
  maxLines: 20000,
  bytesPerAnswer: 256 * 1024,
  imageBytes: 5 * 1024 * 1024,
};

/** Why a path that exists is not a file to read, without opening it (a FIFO would block). */
function notAFile(rel: string, st: Stats): string | undefined {
  if (st.isDirectory()) return `"${rel}" is a directory; use list_directory to see what it holds.`;
  if (st.isFile()) return undefined;
  const what = st.isFIFO()
    ? 'a FIFO (named pipe)'
    : st.isSocket()
      ? 'a socket'
      : st.isCharacterDevice()
        ? 'a character device'
        : st.isBlockDevice()
          ? 'a block device'
          : 'not a regular file';
  return `"${rel}" is ${what}; only regular files can be read.`;
}

/** O_NONBLOCK: if a FIFO was swapped in after the check, opening it must not hang. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

async function readFile(sandbox: Sandbox, path: string, offset: number, limit: number): Promise<CallToolResult> {
  const { real, rel } = await sandbox.existing(path);
  const st = await stat(real);
  const refusal = notAFile(rel, st);
  if (refusal) throw new ToolError(refusal);
  // Checked again once open: a folder on the path may have become a symlink since the sandbox looked.
  const fh = await openInside(sandbox.root, real, OPEN_FLAGS, rel);
  try {
    const fst = await fh.stat();
    if (!fst.isFile() || fst.ino !== st.ino) throw new ToolError(`"${rel}" changed while it was being opened; try again.`);
    const size = fst.size;
    const head = Buffer.alloc(Math.min(8192, size));
    if (head.length > 0) await fh.read(head, 0, head.length, 0);
    const kind = detectKind(head);
    if (kind.kind === 'image') {
      if (size > READ_LIMITS.imageBytes) {
        throw new ToolError(`"${rel}" is a ${kind.name} of ${formatBytes(size)}, over the ${formatBytes(READ_LIMITS.imageBytes)} limit for images.`);
      }
      const data = await fh.readFile();
      return {
        content: [
          { type: 'image', data: data.toString('base64'), mimeType: kind.mimeType },
          { type: 'text', text: `${rel}: ${kind.name}, ${formatBytes(size)}` },
        ],
      };
    }
    if (kind.kind === 'binary') {
      const hint = kind.name === 'SQLite database' ? ' Use query_database to query it.' : '';
      throw new ToolError(`"${rel}" is a binary file (${kind.name}, ${formatBytes(size)}); read_file shows text and images only.${hint}`);
    }
    if (size === 0) return { content: [{ type: 'text', text: `[${rel} is empty: 0 bytes]` }] };
    const key = `${real}\0${fst.ino}\0${size}\0${fst.mtimeMs}`;
    let page;
    try {
      page = await readPage(fh, key, size, offset, limit, READ_LIMITS.bytesPerAnswer);
    } catch (err) {
      if (err instanceof RangeError) throw new ToolError(`${rel}: ${err.message}`);
      throw err;
    }
    const notes: string[] = [];
    if (page.longLineCut) {
      notes.push(
        `[line ${page.firstLine} is longer than ${formatBytes(READ_LIMITS.bytesPerAnswer)}; showing only its start. ` +
          `search_files with a content pattern or run_code can look further into it]`,
      );
    }
    if (page.firstLine > 1 || page.lastLine < page.totalLines) {
      const cap = page.cutByBytes ? ` (cut at ${formatBytes(READ_LIMITS.bytesPerAnswer)})` : '';
      const more = page.lastLine < page.totalLines ? `; call read_file with offset=${page.lastLine + 1} to continue` : '; end of file';
      notes.push(`[showing lines ${page.firstLine}-${page.lastLine} of ${page.totalLines}${cap}${more}]`);
    }
    if (notes.length === 0) return { content: [{ type: 'text', text: page.text }] };
    const sep = page.text.endsWith('\n') ? '' : '\n';
    return { content: [{ type: 'text', text: `${page.text}${sep}${notes.join('\n')}` }] };
  } finally {
    await fh.close();
  }
}

export function registerReadFile(server: McpServer, sandbox: Sandbox): void {
  server.registerTool(
    'read_file',
    {
      title: 'Read file',
      description:
        'Read a text file in the workspace, a page of lines at a time, or an image (PNG, JPEG, GIF, WebP) as an image. ' +
        `Returns up to ${READ_LIMITS.defaultLines} lines and ${formatBytes(READ_LIMITS.bytesPerAnswer)} per call; ` +
        'a cut answer ends with a note saying which offset to ask for next.',
      inputSchema: {
        path: z.string().min(1).describe('File path, relative to the workspace (absolute paths inside it also work).'),
        offset: z.number().int().min(1).optional().describe('First line to return, 1-based. Default 1.'),
        limit: z.number().int().min(1).max(READ_LIMITS.maxLines).optional().describe(`Most lines to return. Default ${READ_LIMITS.defaultLines}.`),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    guarded('read_file', async ({ path, offset, limit }) => readFile(sandbox, path, offset ?? 1, limit ?? READ_LIMITS.defaultLines)),
  );
}
