// Every repository path our Markdown names must exist, every relative link must resolve, and every
// #anchor into one of our own .md files must match a heading there: docs that point at moved files
// send readers nowhere, and nothing else notices.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const SKIP_DIRS = new Set(['node_modules', 'out', 'dist', '.git', '.test-artifacts', '.vscode-test']);
// A backticked token is taken for a repository path only when it starts with one of these folders.
const TOP_FOLDERS = ['src', 'media', 'servers', 'scripts', 'test', 'bench', 'docs', '.ci', 'sample-workspace'];

function findRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) || !fs.existsSync(path.join(dir, 'README.md'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no repository root above ${__dirname}`);
    dir = up;
  }
  return dir;
}

function markdownFiles(root: string, dir = root): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) found.push(...markdownFiles(root, path.join(dir, entry.name)));
    } else if (entry.name.endsWith('.md')) {
      found.push(path.join(dir, entry.name));
    }
  }
  return found;
}

// Prose only: fenced blocks hold commands and examples, comments hold notes to writers.
function prose(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, '')
    .split('\n')
    .reduce<{ out: string[]; fenced: boolean }>(
      (acc, line) => {
        if (/^\s*(```|~~~)/.test(line)) acc.fenced = !acc.fenced;
        else if (!acc.fenced) acc.out.push(line);
        return acc;
      },
      { out: [], fenced: false },
    )
    .out.join('\n');
}

// GitHub's heading ids: lowercased, formatting and punctuation dropped, spaces to hyphens, repeats numbered.
function anchorsOf(text: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(text).split('\n')) {
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) ids.add(m[1] ?? '');
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const plain = (h[1] ?? '').replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const slug = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    ids.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return ids;
}

function linkTargets(text: string): string[] {
  const targets: string[] = [];
  for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1] ?? '');
  return targets;
}

function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

// Backticked tokens that name a file or folder of this repository. Globs, placeholders and elisions
// (`dist/servers/<name>.js`, `src/**/*.ts`, `…`) stand for many paths, so they are not checked.
function backtickedPaths(text: string): string[] {
  const paths: string[] = [];
  for (const m of text.matchAll(/`([^`\n]+)`/g)) {
    for (const raw of (m[1] ?? '').split(/\s+/)) {
      const token = raw.replace(/^["'(]+|["'),;]+$/g, '').replace(/:\d+(:\d+)?$/, '');
      if (!TOP_FOLDERS.some((f) => token.startsWith(`${f}/`))) continue;
      if (/[*?{}<>$…]|\.\.\./.test(token)) continue;
      paths.push(token);
    }
  }
  return paths;
}

test('every path and link in our Markdown leads somewhere that exists', () => {
  const root = findRoot();
  const files = markdownFiles(root);
  assert.ok(files.some((f) => path.relative(root, f) === 'README.md'));
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    let set = anchorCache.get(file);
    if (!set) anchorCache.set(file, (set = anchorsOf(fs.readFileSync(file, 'utf8'))));
    return set;
  };
  const problems: string[] = [];
  let checked = 0;
  for (const file of files) {
    const where = path.relative(root, file);
    const text = prose(fs.readFileSync(file, 'utf8'));
    for (const target of linkTargets(text)) {
      if (isExternal(target)) continue;
      checked++;
      const [rawPath = '', anchor] = target.split('#', 2);
      const resolved = rawPath === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(rawPath));
      if (!fs.existsSync(resolved)) {
        problems.push(`${where}: link to ${target}: ${path.relative(root, resolved)} does not exist`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) {
        problems.push(`${where}: link to ${target}: no heading #${anchor} in ${path.relative(root, resolved)}`);
      }
    }
    for (const p of backtickedPaths(text)) {
      checked++;
      if (!fs.existsSync(path.join(root, p))) problems.push(`${where}: \`${p}\` does not exist`);
    }
  }
  assert.ok(checked > 100, `only ${checked} paths and links found: is the scan still reading the docs?`);
  assert.deepEqual(problems, []);
});

test('headings become the anchors GitHub makes', () => {
  const ids = anchorsOf("# The CLI\n## What a folder's settings may set\n## `@` in the input\n## Tools\n## Tools\n```\n# not a heading\n```\n");
  assert.deepEqual([...ids], ['the-cli', 'what-a-folders-settings-may-set', '-in-the-input', 'tools', 'tools-1']);
});
