import type { Dirent } from 'node:fs';
import { lstat, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { guarded, textResult, ToolError } from '../lib/results';
import type { Sandbox } from '../../src/node/sandbox';
import { formatBytes } from '../../src/node/byte-size';
import { opendirInsideSync } from '../../src/node/confined-fs';

const MAX_ENTRIES = 1000;
/** Folders that are large, generated or private: skipped unless the caller asks for them. */
export const IGNORED_DIRS = new Set(['.git', 'node_modules']);
/** How long counting what a capped listing left out may take before saying "at least". */
const COUNT_BUDGET_MS = 100;

interface DirRead {
  entries: Dirent[];
  /** Entries left out of `entries`; `countComplete` false means "at least this many". */
  omitted: number;
  countComplete: boolean;
}

/**
 * Reads at most `max` entries without reading the rest into memory; the rest are only counted,
 * within a time budget, so a 200,000-entry folder costs milliseconds, not a 200,000-item array.
 */
function readCapped(root: string, dir: string, rel: string, max: number): DirRead {
  // Checked once open: a folder swapped for a symlink since the sandbox looked is not listed.
  const handle = opendirInsideSync(root, dir, rel);
  const entries: Dirent[] = [];
  let omitted = 0;
  let countComplete = true;
  try {
    let entry: Dirent | null;
    while (entries.length < max && (entry = handle.readSync()) !== null) entries.push(entry);
    if (entries.length >= max) {
      const deadline = performance.now() + COUNT_BUDGET_MS;
      for (;;) {
        if ((omitted & 1023) === 0 && performance.now() > deadline) {
          countComplete = false;
          break;
        }
        if (handle.readSync() === null) break;
        omitted++;
      }
    }
  } finally {
    handle.closeSync();
  }
  return { entries, omitted, countComplete };
}

const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

interface Walk {
  root: string;
  lines: string[];
  shown: number;
  omittedNotes: string[];
  includeIgnored: boolean;
}

async function describe(dir: string, e: Dirent): Promise<string> {
  const full = join(dir, e.name);
  if (e.isDirectory()) return `${e.name}/`;
  if (e.isSymbolicLink()) {
    const to = await readlink(full).catch(() => '?');
    return `${e.name} -> ${to} (symlink, not followed)`;
  }
  if (e.isFile()) {
    const st = await lstat(full).catch(() => undefined);
    return st ? `${e.name} (${formatBytes(st.size)})` : e.name;
  }
  const kind = e.isFIFO() ? 'FIFO' : e.isSocket() ? 'socket' : 'device';
  return `${e.name} (${kind})`;
}

async function walk(w: Walk, dir: string, rel: string, depth: number, indent: string): Promise<void> {
  const room = MAX_ENTRIES - w.shown;
  if (room <= 0) return;
  const read = readCapped(w.root, dir, rel, room);
  read.entries.sort(byName);
  w.shown += read.entries.length;
  const labels = await Promise.all(read.entries.map((e) => describe(dir, e)));
  for (const [i, e] of read.entries.entries()) {
    const ignored = e.isDirectory() && IGNORED_DIRS.has(e.name) && !w.includeIgnored;
    w.lines.push(`${indent}${labels[i]}${ignored ? ' (skipped; include_ignored: true lists it)' : ''}`);
    if (e.isDirectory() && !ignored && depth > 1) {
      await walk(w, join(dir, e.name), rel === '.' ? e.name : `${rel}/${e.name}`, depth - 1, `${indent}  `);
    }
  }
  if (read.omitted > 0 || !read.countComplete) {
    const n = read.countComplete ? `${read.omitted}` : `at least ${read.omitted}`;
    w.lines.push(`${indent}… ${n} more entries not shown`);
    w.omittedNotes.push(`${n} in "${rel}"`);
  }
}

export function registerListDirectory(server: McpServer, sandbox: Sandbox): void {
  server.registerTool(
    'list_directory',
    {
      title: 'List directory',
      description:
        `List a workspace folder as a tree (folders end in "/", files show their size), up to ${MAX_ENTRIES} entries. ` +
        '.git and node_modules are skipped unless include_ignored is true. Symlinks are shown, not followed.',
      inputSchema: {
        path: z.string().optional().describe('Folder, relative to the workspace. Default: the workspace itself.'),
        depth: z.number().int().min(1).max(10).optional().describe('How many levels to descend. Default 2.'),
        include_ignored: z.boolean().optional().describe('Also list .git and node_modules. Default false.'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    guarded('list_directory', async ({ path, depth, include_ignored }) => {
      const { real, rel } = await sandbox.existing(path ?? '.');
      const st = await lstat(real);
      if (!st.isDirectory()) throw new ToolError(`"${rel}" is a file, not a folder; use read_file to read it.`);
      const w: Walk = { root: sandbox.root, lines: [`${rel === '.' ? '.' : rel}/`], shown: 0, omittedNotes: [], includeIgnored: include_ignored ?? false };
      await walk(w, real, rel, depth ?? 2, '  ');
      if (w.shown === 0) w.lines.push('  (empty)');
      if (w.shown >= MAX_ENTRIES) {
        w.lines.push(
          `[listing stopped at ${MAX_ENTRIES} entries${w.omittedNotes.length ? `; left out: ${w.omittedNotes.join(', ')}` : ''}` +
            '; folders after the cut were not visited. List a subfolder, or use search_files to find names]',
        );
      } else if (w.omittedNotes.length) {
        w.lines.push(`[left out: ${w.omittedNotes.join(', ')}]`);
      }
      return textResult(w.lines.join('\n'), { shown: w.shown, truncated: w.shown >= MAX_ENTRIES });
    }),
  );
}
