import { nameTest } from './glob';
import { walk, type WalkEnd } from './search-walk';
import { scanContents, type ContentMatch, type ScanCounts, type ScanOptions } from './content-scan';

/** One search_files call, as the worker thread gets it. */
export interface SearchInput {
  root: string;
  start: string;
  startRel: string;
  pattern: string;
  includeIgnored: boolean;
  /** Matching names wanted (a content search wants every candidate). */
  nameLimit: number;
  walkBudgetMs: number;
  maxVisited: number;
  content?: Omit<ScanOptions, 'root'>;
}

/** Sent while the search runs, so a search stopped for time still answers with what it found. */
export type SearchProgress =
  { kind: 'names'; names: string[] } | { kind: 'walked'; walk: WalkEnd; candidates: number } | { kind: 'matches'; batch: ContentMatch[]; counts: ScanCounts };

export interface SearchResult {
  walk: WalkEnd;
  scan?: ScanCounts;
}

const FLUSH_NAMES = 256;
const FLUSH_MS = 50;

/** Runs in the search worker: walk, match names, and with `content`, scan the files found. */
export function runSearch(input: SearchInput, progress: (p: SearchProgress) => void): SearchResult {
  const test = nameTest(input.pattern);
  const candidates: Array<[string, string]> = [];
  let names: string[] = [];
  let flushed = performance.now();
  const flushNames = (): void => {
    if (names.length > 0) progress({ kind: 'names', names });
    names = [];
    flushed = performance.now();
  };
  const end = walk(
    {
      root: input.root,
      start: input.start,
      startRel: input.startRel,
      test,
      includeIgnored: input.includeIgnored,
      limit: input.nameLimit,
      budgetMs: input.walkBudgetMs,
      maxVisited: input.maxVisited,
    },
    (real, rel) => {
      if (input.content) {
        candidates.push([real, rel]);
        return;
      }
      names.push(rel);
      if (names.length >= FLUSH_NAMES || performance.now() - flushed > FLUSH_MS) flushNames();
    },
  );
  flushNames();
  if (!input.content) return { walk: end };
  progress({ kind: 'walked', walk: end, candidates: candidates.length });
  let posted = performance.now();
  const scan = scanContents(candidates, { root: input.root, ...input.content }, (batch, counts) => {
    // Every match at once; counts alone now and then (a message per file would flood the port).
    if (batch.length === 0 && performance.now() - posted < FLUSH_MS) return;
    progress({ kind: 'matches', batch, counts });
    posted = performance.now();
  });
  return { walk: end, scan };
}
