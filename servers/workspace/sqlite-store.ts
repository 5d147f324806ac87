import { constants, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import AsyncLock from 'async-lock';
import { ToolError } from '../lib/results';
import { writeFileAtomic } from '../lib/atomic-write';
import { formatBytes } from '../../src/node/byte-size';
import { openInside } from '../../src/node/confined-fs';
import { TaskStopped, TaskWorker } from './task-worker';
import { withLockFile } from './lock-file';
import { looksReadOnly, READ_ONLY_REFUSED } from '../../src/node/sql-read-only';
import type { Bindable, SqlInput, SqlOutput } from './sql-task';

/** How long past its own time limit a statement of another process may hold a database's lock file (loading and saving). */
const LOCK_MARGIN_MS = 5_000;
/** Said when a database is missing: the demo's tables come only on the person's request, never unasked. */
const HOW_TO_CREATE =
  'Check the name with search_files pattern "*.db". For the demo database (books and users), the person can run ' +
  '"MCP Agent: Create Sample Database" in VS Code or `mcp-agent --workspace <dir> --create-sample-db` in a terminal; ' +
  'otherwise a CREATE TABLE statement creates the file.';
const HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** MCP_AGENT_SQL_TIMEOUT_MS: how long one statement may run before it is stopped. */
function timeoutMs(): number {
  const ms = Number(process.env.MCP_AGENT_SQL_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : 30_000;
}

/** MCP_AGENT_SQL_MEMORY_MB: the memory one statement may use (SQLite's heap, and the worker's JS heap). */
function memoryMb(): number {
  const mb = Number(process.env.MCP_AGENT_SQL_MEMORY_MB);
  return Number.isFinite(mb) && mb >= 8 ? mb : 512;
}

/** Which version of the file a copy was loaded from or last saved as. */
interface Stamp {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

type DiskState = { kind: 'missing' } | { kind: 'empty'; stamp: Stamp } | { kind: 'file'; stamp: Stamp };

/** What the main thread knows of one database file. */
interface DbFile {
  /** The version on disk that the worker's copy was loaded from or saved as (undefined: no file then). */
  stamp: Stamp | undefined;
  /** Which worker (by generation) holds that copy open; undefined when no worker's copy can be trusted. */
  heldBy: number | undefined;
}

/** One statement: what it runs on, and how. */
interface Statement {
  real: string;
  rel: string;
  sql: string;
  params: Bindable | undefined;
  signal: AbortSignal;
  readOnly: boolean;
}

export interface QueryAnswer {
  text: string;
  data: Record<string, unknown>;
  notes: string[];
}

function stampOf(st: Stats): Stamp {
  return { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
}

/** Any write, ours (a new file by rename) or another program's in place, changes one of these. */
function sameVersion(a: Stamp | undefined, b: Stamp | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

function versionOf(state: DiskState): Stamp | undefined {
  return state.kind === 'missing' ? undefined : state.stamp;
}

async function diskState(real: string): Promise<DiskState> {
  try {
    const st = await stat(real);
    if (!st.isFile()) throw new ToolError(`"${real}" is not a regular file, so it cannot be a database.`);
    return { kind: st.size === 0 ? 'empty' : 'file', stamp: stampOf(st) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw err;
  }
}

/** Why a statement was stopped, said so that a person knows what to change. */
function stoppedMessage(err: TaskStopped): string {
  const unsaved = 'nothing it changed was saved, and the database is as it was before it';
  if (err.why === 'timeout') {
    return (
      `The statement ran longer than ${timeoutMs() / 1000} s, query_database's time limit (MCP_AGENT_SQL_TIMEOUT_MS), and was stopped; ` +
      `${unsaved}. Add a LIMIT or a WHERE clause, or check that a recursive CTE has an end condition.`
    );
  }
  if (err.why === 'out-of-memory') return memoryMessage();
  if (err.why === 'cancelled') return 'cancelled';
  return `The SQL worker stopped unexpectedly (${err.message}); ${unsaved}. The next call starts a new one.`;
}

function memoryMessage(): string {
  return (
    `The statement needed more than ${memoryMb()} MiB, query_database's memory limit (MCP_AGENT_SQL_MEMORY_MB), and was stopped; ` +
    'nothing it changed was saved. Build smaller values, or aggregate less at once (LIMIT, WHERE, length() instead of the value).'
  );
}

/**
 * The databases query_database uses, one store per process (every HTTP session shares it).
 * Statements run one at a time in a worker thread (sql-task.ts) that can be stopped; this side
 * knows which version of each file the worker's copy came from and reloads a file that changed on
 * disk. A statement that may write holds the database's lock file (lock-file.ts) from reading the
 * file to saving it, so MCP Agent processes on one folder take turns; its result is saved
 * (atomically) before it is acknowledged, so every other process sees it on its next statement and
 * a stopped worker or a killed server loses nothing acknowledged. A file another program changed
 * while a statement ran is never saved over: the statement fails and says so.
 */
export class SqliteStore {
  private readonly files = new Map<string, DbFile>();
  private worker: TaskWorker | undefined;
  private generation = 0;
  /** One statement at a time: the worker runs one, and the lock file is held once per process. */
  private readonly lock = new AsyncLock({ maxPending: 10_000 });

  constructor(private readonly root: string) {}

  query(real: string, rel: string, sql: string, params: Bindable | undefined, signal: AbortSignal, readOnly = false): Promise<QueryAnswer> {
    const statement: Statement = { real, rel, sql, params, signal, readOnly };
    return this.lock.acquire('sql', () => this.run(statement));
  }

  /** Stops the worker; the files hold everything acknowledged. */
  dispose(): void {
    this.recycle();
  }

  private async run(st: Statement): Promise<QueryAnswer> {
    if (st.signal.aborted) throw new Error('cancelled');
    const mayWrite = !st.readOnly && !looksReadOnly(st.sql);
    return mayWrite ? this.locked(st, () => this.runStatement(st, true)) : this.runStatement(st, false);
  }

  private locked<T>(st: Statement, work: () => Promise<T>): Promise<T> {
    // The holder runs one statement, which is stopped at its time limit; then it saves.
    return withLockFile(st.real, { root: this.root, shownAs: st.rel, waitMs: timeoutMs() + LOCK_MARGIN_MS, signal: st.signal }, work);
  }

  private async runStatement(st: Statement, holdsLock: boolean): Promise<QueryAnswer> {
    const { real, rel, sql } = st;
    const state = await diskState(real);
    const file = this.files.get(real) ?? { stamp: undefined, heldBy: undefined };
    this.files.set(real, file);
    const copy = await this.copyFor(file, state, st);
    const out = await this.inWorker(
      { real, load: copy?.load, sql, params: st.params, memoryBytes: memoryMb() * 1024 * 1024, readOnly: st.readOnly },
      st.signal,
      copy?.transfer ?? [],
    );
    if (copy) {
      file.stamp = copy.version;
      file.heldBy = out.ok ? this.generation : undefined;
    }
    if (!out.ok) {
      if (out.memory) {
        // SQLite's heap grew to the limit; a fresh worker gives that memory back.
        this.recycle();
        throw new ToolError(memoryMessage());
      }
      // A write to a database that did not exist, e.g. an INSERT before any CREATE TABLE: say where the tables come from.
      throw new ToolError(
        copy?.load === 'new' && state.kind === 'missing' && out.message !== READ_ONLY_REFUSED
          ? `${out.message} (database "${rel}" did not exist; nothing was saved). ${HOW_TO_CREATE}`
          : out.message,
      );
    }
    if (out.bytes) {
      const bytes = out.bytes;
      await (holdsLock ? this.save(st, file, bytes) : this.locked(st, () => this.save(st, file, bytes)));
    } else if (copy?.load === 'new') {
      file.heldBy = undefined; // nothing was written: no database comes into being
    }
    const notes = copy?.load === 'new' && out.wrote ? [`[created ${rel}]`] : [];
    return { text: out.text, data: out.data, notes };
  }

  /** The copy the worker must load first, or undefined when the one it holds is the file's current version. */
  private async copyFor(
    file: DbFile,
    state: DiskState,
    st: Statement,
  ): Promise<{ load: SqlInput['load']; transfer: ArrayBuffer[]; version: Stamp | undefined } | undefined> {
    if (state.kind === 'file') {
      if (file.heldBy === this.generation && this.worker?.alive === true && sameVersion(file.stamp, state.stamp)) return undefined;
      const { bytes, version } = await this.readDatabase(st.real, st.rel);
      return { load: { bytes, rel: st.rel }, transfer: [bytes.buffer as ArrayBuffer], version };
    }
    // Only a statement that writes may bring a database into being; a query gets a clear error.
    if (looksReadOnly(st.sql)) {
      throw new ToolError(
        state.kind === 'missing'
          ? `Database "${st.rel}" does not exist. ${HOW_TO_CREATE}`
          : `Database "${st.rel}" is an empty file (0 bytes), not a database yet; a CREATE TABLE statement makes it one.`,
      );
    }
    return { load: 'new', transfer: [], version: versionOf(state) };
  }

  private async inWorker(input: SqlInput, signal: AbortSignal, transfer: ArrayBuffer[]): Promise<SqlOutput> {
    if (!this.worker?.alive) {
      this.worker = new TaskWorker('sql', { maxOldGenerationSizeMb: memoryMb() });
      this.generation++;
    }
    try {
      return await this.worker.run<SqlOutput>(input, { timeoutMs: timeoutMs(), signal }, transfer);
    } catch (err) {
      if (!(err instanceof TaskStopped)) throw err;
      this.recycle();
      if (err.why === 'cancelled') throw new Error('cancelled', { cause: err });
      throw new ToolError(stoppedMessage(err));
    }
  }

  /** Drops the worker and what it held; the next statement starts a new one from the file. */
  private recycle(): void {
    this.worker?.terminate();
    this.worker = undefined;
  }

  /** The file's bytes and the version they are (of the file opened, whatever its name leads to a moment later). */
  private async readDatabase(real: string, rel: string): Promise<{ bytes: Uint8Array; version: Stamp }> {
    const fh = await openInside(this.root, real, READ_FLAGS, rel);
    let bytes: Buffer;
    let version: Stamp;
    try {
      version = stampOf(await fh.stat());
      bytes = await fh.readFile();
    } finally {
      await fh.close();
    }
    if (bytes.length < HEADER.length || !bytes.subarray(0, HEADER.length).equals(HEADER)) {
      throw new ToolError(
        `"${rel}" (${formatBytes(bytes.length)}) is not a SQLite database: it does not start with the SQLite header. ` +
          'It may be corrupt or another kind of file.',
      );
    }
    // A buffer of its own, so that it can be handed to the worker rather than copied.
    return { bytes: bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes), version };
  }

  /**
   * Saves a statement's result over the version it ran on, and only over that one: another
   * program's change since then (made without our lock) fails the statement instead of being lost.
   */
  private async save(st: Statement, file: DbFile, bytes: Uint8Array): Promise<void> {
    const now = await diskState(st.real);
    if (!sameVersion(file.stamp, versionOf(now))) {
      file.heldBy = undefined;
      throw new ToolError(
        `"${st.rel}" was changed by another program while this statement ran, so its result was not saved (that would have ` +
          'overwritten the other change); nothing was changed. Run the statement again: it then sees the other change.',
      );
    }
    try {
      await writeFileAtomic(st.real, bytes, undefined, this.root);
      file.stamp = stampOf(await stat(st.real));
    } catch (err) {
      file.heldBy = undefined; // the worker's copy has a change the file lacks: never use it again
      if (err instanceof ToolError) throw err;
      throw new ToolError(`Could not save "${st.rel}" (${(err as Error).message}); the statement's change was not kept.`);
    }
  }
}
