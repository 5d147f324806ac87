import { Worker } from 'node:worker_threads';

export interface ContentMatch {
  rel: string;
  line: number;
  text: string;
}

export interface ContentScan {
  matches: ContentMatch[];
  filesScanned: number;
  skippedBinary: number;
  skippedLarge: number;
  timedOut: boolean;
}

/**
 * The scan runs in a worker thread because the pattern is the caller's regular expression: one
 * with catastrophic backtracking would freeze the server's event loop; a worker can be terminated.
 * Plain JS in a string so that it needs no bundle of its own.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { files, source, flags, maxResults, maxFileBytes, maxLineChars } = workerData;
const re = new RegExp(source, flags);
let found = 0, scanned = 0, binary = 0, large = 0;
for (const [real, rel] of files) {
  if (found >= maxResults) break;
  let buf;
  try {
    const st = fs.lstatSync(real);
    if (!st.isFile()) continue;
    if (st.size > maxFileBytes) { large++; continue; }
    buf = fs.readFileSync(real);
  } catch { continue; }
  if (buf.subarray(0, 8192).includes(0)) { binary++; continue; }
  scanned++;
  const text = buf.toString('utf8');
  const batch = [];
  let start = 0, line = 1;
  while (start <= text.length && found < maxResults) {
    let end = text.indexOf('\\n', start);
    if (end === -1) end = text.length;
    const s = text.slice(start, end);
    re.lastIndex = 0;
    if (re.test(s)) {
      found++;
      const shown = s.replace(/\\r$/, '');
      batch.push({ rel, line, text: shown.length > maxLineChars ? shown.slice(0, maxLineChars) + '…' : shown });
    }
    start = end + 1; line++;
  }
  parentPort.postMessage({ type: 'progress', batch, scanned, binary, large });
}
parentPort.postMessage({ type: 'done', scanned, binary, large });
`;

export function scanContents(
  files: Array<[string, string]>,
  pattern: RegExp,
  opts: { maxResults: number; maxFileBytes: number; timeoutMs: number; signal?: AbortSignal },
): Promise<ContentScan> {
  const result: ContentScan = { matches: [], filesScanned: 0, skippedBinary: 0, skippedLarge: 0, timedOut: false };
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        files,
        source: pattern.source,
        flags: pattern.flags.replace(/[gy]/g, ''),
        maxResults: opts.maxResults,
        maxFileBytes: opts.maxFileBytes,
        maxLineChars: 300,
      },
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    const timer = setTimeout(() => {
      result.timedOut = true;
      void worker.terminate();
    }, opts.timeoutMs);
    opts.signal?.addEventListener('abort', () => void worker.terminate(), { once: true });
    worker.on('message', (m: { type: string; batch?: ContentMatch[]; scanned: number; binary: number; large: number }) => {
      if (m.batch) result.matches.push(...m.batch);
      result.filesScanned = m.scanned;
      result.skippedBinary = m.binary;
      result.skippedLarge = m.large;
      if (m.type === 'done') void worker.terminate();
    });
    worker.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    worker.on('exit', () => {
      clearTimeout(timer);
      resolve(result);
    });
  });
}
