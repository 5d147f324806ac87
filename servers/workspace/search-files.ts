import { lstat } from 'node:fs/promises';
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { guarded, textResult, ToolError } from '../lib/results';
import type { Sandbox } from '../../src/node/sandbox';
import { formatBytes } from '../../src/node/byte-size';
import { TaskStopped, WorkerPool } from './task-worker';
import type { SearchInput, SearchProgress, SearchResult } from './search-task';
import type { ContentMatch, ScanCounts } from './content-scan';
import type { WalkEnd } from './search-walk';

const DEFAULT_RESULTS = 200;
const MAX_RESULTS = 1000;
/** The walk stops here and says so: a workspace holding a million files still answers. */
const MAX_VISITED = 500_000;
const WALK_BUDGET_MS = 5000;
const CONTENT_FILE_BYTES = 5 * 1024 * 1024;
const MAX_PATTERN_CHARS = 1000;
/**
 * MCP_AGENT_SEARCH_TIMEOUT_S bounds each part of a search: matching names during the walk, and the
 * content scan. The walk itself stops gracefully after WALK_BUDGET_MS; this limit is for a glob or
 * regular expression so slow that even one file takes too long, and the worker is terminated.
 */
function searchBudgetMs(): number {
  const s = Number(process.env.MCP_AGENT_SEARCH_TIMEOUT_S);
  return Number.isFinite(s) && s > 0 ? s * 1000 : 10_000;
}

/** Walks and scans run in worker threads: a slow glob or regular expression is stopped, never waited for. */
const pool = new WorkerPool('search', { maxOldGenerationSizeMb: 512 });

/** What a search gathered, whether it finished or was stopped. */
interface Gathered {
  names: string[];
  walk: WalkEnd | undefined;
  matches: ContentMatch[];
  counts: ScanCounts | undefined;
  /** Why the worker was stopped, if it was. */
  stopped: TaskStopped | undefined;
}

async function gather(input: SearchInput, signal: AbortSignal): Promise<Gathered> {
  const g: Gathered = { names: [], walk: undefined, matches: [], counts: undefined, stopped: undefined };
  const budget = searchBudgetMs();
  try {
    const result = await pool.run<SearchResult, SearchProgress>(input, {
      timeoutMs: Math.max(budget, 1),
      signal,
      onProgress: (p, restartTimer) => {
        if (p.kind === 'names') g.names.push(...p.names);
        else if (p.kind === 'walked') {
          g.walk = p.walk;
          restartTimer(budget); // the content scan gets its own time
        } else {
          g.matches.push(...p.batch);
          g.counts = p.counts;
        }
      },
    });
    g.walk = result.walk;
    g.counts = result.scan ?? g.counts;
  } catch (err) {
    if (!(err instanceof TaskStopped) || err.why === 'cancelled') throw err;
    g.stopped = err;
  }
  return g;
}

/** The note for a search whose worker had to be stopped. */
function stoppedNote(g: Gathered, content: boolean): string {
  const s = g.stopped as TaskStopped;
  const secs = searchBudgetMs() / 1000;
  if (s.why === 'timeout') {
    return g.walk === undefined
      ? `matching file names against the pattern stopped after ${secs} s (a glob with many "*" can be slow on long names); ` +
          `${content ? 'no content was searched' : 'names found until then are shown'}`
      : `content search stopped after ${secs} s (a slow pattern?); results may be incomplete`;
  }
  if (s.why === 'out-of-memory') return 'the search ran out of memory and was stopped; results may be incomplete';
  return `the search stopped unexpectedly (${s.message}); results may be incomplete`;
}

function walkNotes(walk: WalkEnd | undefined): string[] {
  const notes: string[] = [];
  if (walk?.stoppedEarly) notes.push(walk.stoppedEarly);
  if (walk?.skippedMoved)
    notes.push(`${walk.skippedMoved} folder${walk.skippedMoved === 1 ? '' : 's'} that changed into a symlink leading out while being searched were skipped`);
  return notes;
}

export function registerSearchFiles(server: McpServer, sandbox: Sandbox): void {
  server.registerTool(
    'search_files',
    {
      title: 'Search files',
      description:
        'Find files in the workspace by name, and optionally search their text. `pattern` is a case-insensitive ' +
        'part of a file name ("readme"), or a glob ("*.py", "src/**/*.test.ts"; with a "/" it matches the ' +
        'relative path). With `content` (a JavaScript regular expression), only lines matching it are returned ' +
        'as path:line: text. .git and node_modules are skipped unless include_ignored is true.',
      inputSchema: {
        pattern: z.string().min(1).max(MAX_PATTERN_CHARS).describe('Name part or glob; "*" for every file.'),
        content: z.string().min(1).max(MAX_PATTERN_CHARS).optional().describe('Regular expression to search for inside text files.'),
        ignore_case: z.boolean().optional().describe('Content search ignores case. Default false.'),
        path: z.string().optional().describe('Folder to search in, relative to the workspace. Default: all of it.'),
        include_ignored: z.boolean().optional().describe('Also search .git and node_modules. Default false.'),
        max_results: z.number().int().min(1).max(MAX_RESULTS).optional().describe(`Default ${DEFAULT_RESULTS}.`),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    guarded('search_files', async ({ pattern, content, ignore_case, path, include_ignored, max_results }, extra) => {
      const limit = max_results ?? DEFAULT_RESULTS;
      let contentRe: RegExp | undefined;
      if (content !== undefined) {
        try {
          contentRe = new RegExp(content, ignore_case ? 'i' : '');
        } catch (err) {
          throw new ToolError(`content is not a valid regular expression: ${(err as Error).message}`);
        }
      }
      const { real, rel } = await sandbox.existing(path ?? '.');
      if (!(await lstat(real)).isDirectory()) throw new ToolError(`"${rel}" is a file, not a folder to search in.`);
      const g = await gather(
        {
          root: sandbox.root,
          start: real,
          startRel: rel,
          pattern,
          includeIgnored: include_ignored ?? false,
          // A content search needs every candidate file; a name search needs only `limit` of them.
          nameLimit: contentRe ? MAX_VISITED : limit,
          walkBudgetMs: WALK_BUDGET_MS,
          maxVisited: MAX_VISITED,
          content: contentRe && {
            source: contentRe.source,
            flags: contentRe.flags,
            maxResults: limit,
            maxFileBytes: CONTENT_FILE_BYTES,
            maxLineChars: 300,
          },
        },
        extra.signal,
      );
      const notes = walkNotes(g.walk);
      if (g.stopped) notes.push(stoppedNote(g, contentRe !== undefined));
      if (!contentRe) {
        const lines = g.names.sort();
        if (lines.length === 0) {
          const looked = g.walk ? ` (looked at ${g.walk.visited} entries)` : '';
          const tail = notes.length ? `\n[${notes.join('; ')}]` : '';
          return textResult(`No file names match "${pattern}"${looked}.${tail}`, { files: [], truncated: notes.length > 0 });
        }
        const head = `${lines.length} file${lines.length === 1 ? '' : 's'} matching "${pattern}"`;
        const tail = notes.length ? `\n[${notes.join('; ')}; narrow the pattern or the path to see the rest]` : '';
        return textResult(`${head}:\n${lines.join('\n')}${tail}`, { files: lines, truncated: notes.length > 0 });
      }
      const counts = g.counts ?? { scanned: 0, binary: 0, large: 0 };
      if (g.matches.length >= limit) notes.push(`stopped at ${limit} matches`);
      if (counts.large) notes.push(`${counts.large} files over ${formatBytes(CONTENT_FILE_BYTES)} not searched`);
      if (counts.binary) notes.push(`${counts.binary} binary files not searched`);
      const found = g.matches.map((m) => `${m.rel}:${m.line}: ${m.text}`);
      const head =
        found.length === 0
          ? `No lines match /${content}/ in ${counts.scanned} files named like "${pattern}".`
          : `${found.length} matching line${found.length === 1 ? '' : 's'} in ${counts.scanned} file${counts.scanned === 1 ? '' : 's'} searched:`;
      const tail = notes.length ? `\n[${notes.join('; ')}]` : '';
      return textResult(`${head}${found.length ? `\n${found.join('\n')}` : ''}${tail}`, {
        matches: g.matches,
        truncated: notes.length > 0,
      });
    }),
  );
}
