import { existsSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Database, SqlJsStatic } from 'sql.js';
import { ToolError } from '../lib/results';
import { writeFileAtomic, writeFileAtomicSync } from '../lib/atomic-write';
import { formatBytes } from '../../src/common/byte-size';

const SAVE_DELAY_MS = 200;
const HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** Which version of the file an open database was loaded from or last saved as. */
interface Stamp {
  ino: number;
  size: number;
  mtimeMs: number;
}

export interface OpenDb {
  db: Database;
  real: string;
  rel: string;
  stamp: Stamp | undefined;
  dirty: boolean;
  timer: NodeJS.Timeout | undefined;
}

/** What is on disk where a database should be. */
export type DiskState = { kind: 'missing' } | { kind: 'empty' } | { kind: 'file'; stamp: Stamp };

function sameStamp(a: Stamp | undefined, b: Stamp): boolean {
  return a !== undefined && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** dist/servers/sql-wasm.wasm next to the bundle; node_modules when running from sources or tests. */
function locateWasm(file: string): string {
  const beside = join(__dirname, file);
  if (existsSync(beside)) return beside;
  for (let dir = __dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    for (const candidate of [join(dir, 'dist', 'servers', file), join(dir, 'node_modules', 'sql.js', 'dist', file)]) {
      if (existsSync(candidate)) return candidate;
    }
  }
  return beside;
}

/**
 * Databases opened by query_database, kept in memory between calls (sql.js holds the whole file).
 * Writes are saved after a short quiet spell, atomically, and on exit; a file changed on disk by
 * another program is reloaded before the next use.
 */
export class SqliteStore {
  private sql: Promise<SqlJsStatic> | undefined;
  private readonly open = new Map<string, OpenDb>();

  constructor() {
    process.once('exit', () => this.flushSync());
  }

  engine(): Promise<SqlJsStatic> {
    // Loaded on first use: a server that never touches a database never pays for sql.js.
    this.sql ??= import('sql.js').then((m) => m.default({ locateFile: locateWasm }));
    return this.sql;
  }

  async diskState(real: string): Promise<DiskState> {
    try {
      const st = await stat(real);
      if (!st.isFile()) throw new ToolError(`"${real}" is not a regular file, so it cannot be a database.`);
      if (st.size === 0) return { kind: 'empty' };
      return { kind: 'file', stamp: { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs } };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
      throw err;
    }
  }

  /**
   * The open database for a file that exists and holds data, reloaded when another program changed
   * it. Returns a warning when this server's unsaved writes will replace such a change.
   */
  async load(real: string, rel: string, state: { kind: 'file'; stamp: Stamp }): Promise<{ entry: OpenDb; warning?: string }> {
    const cached = this.open.get(real);
    if (cached && sameStamp(cached.stamp, state.stamp)) return { entry: cached };
    if (cached?.dirty) {
      return {
        entry: cached,
        warning: `${rel} was changed on disk by another program while this server had unsaved changes; this server's version will be saved over it.`,
      };
    }
    const bytes = await readFile(real);
    if (bytes.length < HEADER.length || !bytes.subarray(0, HEADER.length).equals(HEADER)) {
      throw new ToolError(
        `"${rel}" (${formatBytes(bytes.length)}) is not a SQLite database: it does not start with the SQLite header. ` +
          'It may be corrupt or another kind of file.',
      );
    }
    const SQL = await this.engine();
    let db: Database;
    try {
      db = new SQL.Database(bytes);
      db.exec('PRAGMA schema_version');
    } catch (err) {
      throw new ToolError(`"${rel}" could not be opened as a SQLite database: ${(err as Error).message}`);
    }
    cached?.db.close();
    const entry: OpenDb = { db, real, rel, stamp: state.stamp, dirty: false, timer: undefined };
    this.open.set(real, entry);
    return { entry };
  }

  /** A new, empty database for `real`, saved on the first write. */
  async create(real: string, rel: string): Promise<OpenDb> {
    const SQL = await this.engine();
    this.open.get(real)?.db.close();
    const entry: OpenDb = { db: new SQL.Database(), real, rel, stamp: undefined, dirty: false, timer: undefined };
    this.open.set(real, entry);
    return entry;
  }

  cached(real: string): OpenDb | undefined {
    return this.open.get(real);
  }

  forget(real: string): void {
    const cached = this.open.get(real);
    if (cached && !cached.dirty) {
      cached.db.close();
      this.open.delete(real);
    }
  }

  /** Saves soon: a burst of writes becomes one export, and reads never cause one. */
  markDirty(entry: OpenDb): void {
    entry.dirty = true;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      this.save(entry).catch((err: Error) => process.stderr.write(`workspace: could not save ${entry.rel}: ${err.message}\n`));
    }, SAVE_DELAY_MS);
  }

  private async save(entry: OpenDb): Promise<void> {
    if (!entry.dirty) return;
    entry.dirty = false;
    const data = entry.db.export();
    await writeFileAtomic(entry.real, data);
    const st = await stat(entry.real);
    entry.stamp = { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
  }

  /** On exit no promise runs any more: pending saves are written synchronously. */
  flushSync(): void {
    for (const entry of this.open.values()) {
      if (entry.timer) clearTimeout(entry.timer);
      if (!entry.dirty) continue;
      try {
        writeFileAtomicSync(entry.real, entry.db.export());
        entry.dirty = false;
        const st = statSync(entry.real);
        entry.stamp = { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
      } catch (err) {
        process.stderr.write(`workspace: could not save ${entry.rel}: ${(err as Error).message}\n`);
      }
    }
  }

  /** Test hook and shutdown: saves everything pending now. */
  async flush(): Promise<void> {
    for (const entry of this.open.values()) {
      if (entry.timer) clearTimeout(entry.timer);
      entry.timer = undefined;
      await this.save(entry);
    }
  }
}
