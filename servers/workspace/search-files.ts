import { lstatSync, opendirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { guarded, textResult, ToolError } from '../lib/results';
import type { Sandbox } from '../../src/common/sandbox';
import { formatBytes } from '../../src/common/byte-size';
import { IGNORED_DIRS } from './list-directory';
import { globToRegExp, isGlob } from './glob';
import { scanContents } from './content-scan';

const DEFAULT_RESULTS = 200;
const MAX_RESULTS = 1000;
/** The walk stops here and says so: a workspace holding a million files still answers. */
const MAX_VISITED = 500_000;
const WALK_BUDGET_MS = 5000;
const CONTENT_FILE_BYTES = 5 * 1024 * 1024;
/** MCP_AGENT_SEARCH_TIMEOUT_S bounds a content search (a slow regular expression is stopped). */
function contentBudgetMs(): number {
  const s = Number(process.env.MCP_AGENT_SEARCH_TIMEOUT_S);
  return Number.isFinite(s) && s > 0 ? s * 1000 : 10_000;
}

interface Walked {
  /** [real path, workspace-relative name] of every file whose name matched. */
  files: Array<[string, string]>;
  visited: number;
  stoppedEarly: string | undefined;
}

type NameTest = (name: string, rel: string) => boolean;

function nameTest(pattern: string): NameTest {
  if (!isGlob(pattern)) {
    const needle = pattern.toLowerCase();
    return (name) => name.toLowerCase().includes(needle);
  }
  const re = globToRegExp(pattern);
  // A glob with a slash is about the whole relative path; without one, about the name.
  return pattern.includes('/') ? (_name, rel) => re.test(rel) : (name) => re.test(name);
}

/** Depth-first walk with synchronous directory reads: for 10,000 files, tens of milliseconds. */
function walk(root: string, rootRel: string, test: NameTest, opts: { includeIgnored: boolean; limit: number }): Walked {
  const out: Walked = { files: [], visited: 0, stoppedEarly: undefined };
  const deadline = performance.now() + WALK_BUDGET_MS;
  const stack: Array<[string, string]> = [[root, rootRel === '.' ? '' : rootRel]];
  while (stack.length > 0) {
    const [dir, rel] = stack.pop() as [string, string];
    let handle;
    try {
      handle = opendirSync(dir, { bufferSize: 1024 });
    } catch {
      continue; // unreadable folder: skip it, as find(1) would
    }
    try {
      let e: Dirent | null;
      while ((e = handle.readSync()) !== null) {
        out.visited++;
        const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
        const full = join(dir, e.name);
        let isDir = e.isDirectory();
        let isFile = e.isFile();
        if (!isDir && !isFile && !e.isSymbolicLink() && !e.isFIFO() && !e.isSocket()) {
          // Some file systems do not report entry types: ask, without following links.
          const st = lstatSync(full, { throwIfNoEntry: false });
          isDir = st?.isDirectory() ?? false;
          isFile = st?.isFile() ?? false;
        }
        if (isDir) {
          if (opts.includeIgnored || !IGNORED_DIRS.has(e.name)) stack.push([full, childRel]);
        } else if (isFile && test(e.name, childRel)) {
          out.files.push([full, childRel]);
          if (out.files.length >= opts.limit) {
            out.stoppedEarly = `stopped at ${opts.limit} matching files`;
            return out;
          }
        }
        if ((out.visited & 4095) === 0) {
          if (out.visited >= MAX_VISITED) out.stoppedEarly = `stopped after looking at ${MAX_VISITED} entries`;
          else if (performance.now() > deadline) out.stoppedEarly = `stopped after ${WALK_BUDGET_MS / 1000} s of walking`;
          if (out.stoppedEarly) return out;
        }
      }
    } finally {
      handle.closeSync();
    }
  }
  return out;
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
        pattern: z.string().min(1).describe('Name part or glob; "*" for every file.'),
        content: z.string().min(1).optional().describe('Regular expression to search for inside text files.'),
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
      if (!lstatSync(real).isDirectory()) throw new ToolError(`"${rel}" is a file, not a folder to search in.`);
      const walked = walk(real, rel, nameTest(pattern), {
        includeIgnored: include_ignored ?? false,
        // A content search needs every candidate file; a name search needs only `limit` of them.
        limit: contentRe ? MAX_VISITED : limit,
      });
      const notes: string[] = [];
      if (walked.stoppedEarly) notes.push(walked.stoppedEarly);
      if (!contentRe) {
        const lines = walked.files.map(([, r]) => r).sort();
        if (lines.length === 0) return textResult(`No file names match "${pattern}" (looked at ${walked.visited} entries).`);
        const head = `${lines.length} file${lines.length === 1 ? '' : 's'} matching "${pattern}"`;
        const tail = notes.length ? `\n[${notes.join('; ')}; narrow the pattern or the path to see the rest]` : '';
        return textResult(`${head}:\n${lines.join('\n')}${tail}`, { files: lines, truncated: notes.length > 0 });
      }
      const scan = await scanContents(walked.files, contentRe, {
        maxResults: limit,
        maxFileBytes: CONTENT_FILE_BYTES,
        timeoutMs: contentBudgetMs(),
        signal: extra.signal,
      });
      if (scan.timedOut) notes.push(`content search stopped after ${contentBudgetMs() / 1000} s (a slow pattern?); results may be incomplete`);
      if (scan.matches.length >= limit) notes.push(`stopped at ${limit} matches`);
      if (scan.skippedLarge) notes.push(`${scan.skippedLarge} files over ${formatBytes(CONTENT_FILE_BYTES)} not searched`);
      if (scan.skippedBinary) notes.push(`${scan.skippedBinary} binary files not searched`);
      const found = scan.matches.map((m) => `${m.rel}:${m.line}: ${m.text}`);
      const head =
        found.length === 0
          ? `No lines match /${content}/ in ${scan.filesScanned} files named like "${pattern}".`
          : `${found.length} matching line${found.length === 1 ? '' : 's'} in ${scan.filesScanned} file${scan.filesScanned === 1 ? '' : 's'} searched:`;
      const tail = notes.length ? `\n[${notes.join('; ')}]` : '';
      return textResult(`${head}${found.length ? `\n${found.join('\n')}` : ''}${tail}`, {
        matches: scan.matches,
        truncated: notes.length > 0,
      });
    }),
  );
}
