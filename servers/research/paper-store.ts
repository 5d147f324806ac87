import { lstat, mkdir, readdir, readFile, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { formatBytes } from '../../src/node/byte-size';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { ToolError } from '../lib/results.js';
import type { Paper } from './atom-feed.js';

/**
 * Papers saved per topic in `<workspace>/.mcp-agent/papers/<topic>/papers_info.json`, the seed's
 * layout: `{ "<id>": { title, authors, summary, pdf_url, published } }`. Topic folder names are
 * sanitised to [a-z0-9_-], and every path is checked to stay inside the workspace, symlinks included.
 */

export type PaperInfo = Omit<Paper, 'id'>;
export type PapersFile = Record<string, PaperInfo>;

const FILE = 'papers_info.json';
const MAX_FOLDER = 64;
const MAX_FILE_BYTES = 20 * 1024 * 1024;
const FOLDER_NAME = /^[a-z0-9_-]{1,64}$/;

/**
 * Names Windows gives to devices in every directory: a folder called "con" can't be made there, and
 * writing into it reaches the console. Workspaces travel between systems, so these are renamed everywhere.
 */
const WINDOWS_DEVICES = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

/**
 * "Quantum Computing!" -> "quantum_computing": lowercase, spaces to _, only [a-z0-9_-], bounded;
 * a Windows device name gets "_topic" added ("CON" -> "con_topic").
 */
export function topicFolder(topic: string): string {
  const name = topic
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^a-z0-9_-]/g, '')
    .replace(/_{2,}/g, '_')
    .replace(/^[_-]+/, '')
    .slice(0, MAX_FOLDER)
    .replace(/[_-]+$/, '');
  if (!name) throw new ToolError(`the topic "${topic}" has no letters or digits to name a folder with; use words, e.g. "quantum computing".`);
  return WINDOWS_DEVICES.test(name) ? `${name}_topic` : name;
}

/** True for a name a topic folder may have (what topics() lists). */
export function isFolderName(name: string): boolean {
  return FOLDER_NAME.test(name);
}

async function nearestExisting(path: string): Promise<string> {
  for (let p = path; ; p = dirname(p)) {
    try {
      await lstat(p);
      return p;
    } catch {
      if (dirname(p) === p) return p;
    }
  }
}

export class PaperStore {
  readonly root: string;
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(private readonly workspace: string) {
    this.root = join(workspace, '.mcp-agent', 'papers');
  }

  private folderPath(folder: string): string {
    if (!FOLDER_NAME.test(folder)) throw new ToolError(`"${folder}" is not a valid topic folder name`);
    const path = join(this.root, folder);
    const rel = relative(this.workspace, path);
    if (!rel || rel.startsWith('..') || isAbsolute(rel)) throw new ToolError(`topic folder "${folder}" would leave the workspace`);
    return path;
  }

  /** Refuses a folder that resolves outside the workspace (a symlinked .mcp-agent or papers dir). */
  private async assertInside(path: string): Promise<void> {
    const [real, base] = await Promise.all([
      realpath(path).catch(() => {
        throw new ToolError(`${relative(this.workspace, path)} can't be resolved (a broken symlink?); remove it.`);
      }),
      realpath(this.workspace),
    ]);
    if (real !== base && !real.startsWith(base + sep)) {
      throw new ToolError(`${relative(this.workspace, path)} resolves outside the workspace (a symlink?); refusing to use it.`);
    }
  }

  /** Topic folders that hold a papers file, sorted. */
  async topics(): Promise<string[]> {
    let entries;
    try {
      await this.assertInside(this.root);
      entries = await readdir(this.root, { withFileTypes: true });
    } catch {
      return [];
    }
    // Dirent.isDirectory() is false for symlinks, so a planted link to elsewhere is never listed.
    const folders = entries.filter((e) => e.isDirectory() && FOLDER_NAME.test(e.name)).map((e) => e.name);
    const saved = await Promise.all(
      folders.map((f) =>
        lstat(join(this.root, f, FILE)).then(
          (s) => s.isFile(),
          () => false,
        ),
      ),
    );
    return folders.filter((_, i) => saved[i]).sort();
  }

  async read(folder: string): Promise<PapersFile | undefined> {
    const dir = this.folderPath(folder);
    const file = join(dir, FILE);
    let info;
    try {
      info = await lstat(file);
    } catch {
      return undefined;
    }
    if (!info.isFile()) throw new ToolError(`${relative(this.workspace, file)} is not a regular file; remove it.`);
    if (info.size > MAX_FILE_BYTES) throw new ToolError(`${relative(this.workspace, file)} is too big to read (over ${formatBytes(MAX_FILE_BYTES)}).`);
    await this.assertInside(dir);
    try {
      const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      return parsed as PapersFile;
    } catch (err) {
      throw new ToolError(`${relative(this.workspace, file)} is not valid JSON (${(err as Error).message}); fix or delete it, then search again.`);
    }
  }

  /** Merges papers into a topic's file (atomically); `created` tells whether the topic is new. */
  async save(topic: string, papers: Paper[]): Promise<{ folder: string; file: string; created: boolean }> {
    const folder = topicFolder(topic);
    return this.serialised(folder, async () => {
      const dir = this.folderPath(folder);
      // Check before creating anything, so a symlinked .mcp-agent can't make mkdir write elsewhere.
      await this.assertInside(await nearestExisting(dir));
      await mkdir(dir, { recursive: true });
      await this.assertInside(dir);
      const previous = await this.read(folder);
      const created = previous === undefined;
      const existing = previous ?? {};
      for (const { id, ...info } of papers) existing[id] = info;
      const file = join(dir, FILE);
      await writeFileAtomic(file, `${JSON.stringify(existing, null, 2)}\n`);
      return { folder, file: relative(this.workspace, file), created };
    });
  }

  /** Finds a paper in any topic; accepts the id with or without its version suffix. */
  async find(paperId: string): Promise<{ id: string; folder: string; info: PaperInfo } | undefined> {
    for (const folder of await this.topics()) {
      const papers = await this.read(folder).catch(() => undefined);
      if (!papers) continue;
      if (Object.hasOwn(papers, paperId)) return { id: paperId, folder, info: papers[paperId]! };
      const versioned = Object.keys(papers).find((id) => id.replace(/v\d+$/, '') === paperId);
      if (versioned) return { id: versioned, folder, info: papers[versioned]! };
    }
    return undefined;
  }

  /** One read-merge-write at a time per topic, so two searches can't drop each other's papers. */
  private serialised<T>(folder: string, work: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(folder) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.locks.set(folder, next);
    void next
      .finally(() => {
        if (this.locks.get(folder) === next) this.locks.delete(folder);
      })
      .catch(() => undefined);
    return next;
  }
}
