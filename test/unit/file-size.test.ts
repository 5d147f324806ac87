// The project's rule: a file per idea, split along its seams before it passes MAX_LINES (docs/contributing.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from '../support/repo-root';

const MAX_LINES = 400;
/** Files that may pass MAX_LINES, each with why it cannot be split. Keep it empty. */
const ALLOWED = new Map<string, string>();

function tsFiles(root: string, dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return tsFiles(root, rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

function lineCount(text: string): number {
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** The product's .ts files under `root` longer than MAX_LINES, as `path: N lines`. */
function longFiles(root: string): string[] {
  return ['src', 'servers', 'media']
    .flatMap((d) => tsFiles(root, d))
    .flatMap((rel) => {
      const n = lineCount(readFileSync(join(root, rel), 'utf8'));
      return n > MAX_LINES && !ALLOWED.has(rel) ? [`${rel}: ${n} lines`] : [];
    });
}

test(`no .ts file under src/, servers/ or media/ passes ${MAX_LINES} lines`, () => {
  assert.deepEqual(longFiles(repoRoot()), [], `split these along their seams into files named for their one idea`);
});

test(`a file of ${MAX_LINES} lines passes, one of ${MAX_LINES + 1} is named`, (t) => {
  const root = mkdtempSync(join(tmpdir(), 'mcp-agent-file-size-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const files: Record<string, number> = { 'src/core/ok.ts': MAX_LINES, 'media/chat/long.ts': MAX_LINES + 1, 'servers/web/notes.md': 900 };
  for (const [rel, n] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), 'x;\n'.repeat(n));
  }
  assert.deepEqual(longFiles(root), [`media/chat/long.ts: ${MAX_LINES + 1} lines`]);
});
