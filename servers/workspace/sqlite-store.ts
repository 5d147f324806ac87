import { constants } from 'node:fs';
import { stat } from 'node:fs/promises';
import AsyncLock from 'async-lock';
import { ToolError } from '../lib/results';
import { writeFileAtomic, writeFileAtomicSync } from '../lib/atomic-write';
import { formatBytes } from '../../src/common/byte-size';
import { openInside } from '../../src/common/confined-fs';
import { TaskStopped, TaskWorker } from './task-worker';
import { looksReadOnly, READ_ONLY_REFUSED } from '../../src/common/sql-read-only';
import type { Bindable, SqlInput, SqlOutput } from './sql-task';

const SAVE_DELAY_MS = 200;
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
}

type DiskState = { kind: 'missing' } | { kind: 'empty' } | { kind: 'file'; stamp: Stamp };

/** What the main thread knows of one database file. */
interface DbFile {
  rel: string;
  /** The version on disk that the newest copy started from (undefined: not on disk yet). */
  stamp: Stamp | undefined;
  /** Bytes after the last finished write, not saved yet. They survive a worker that is stopped. */
  pending: Uint8Array | undefined;
  /** Which worker (by generation) holds the newest copy open. */
  heldBy: number | undefined;
  timer: NodeJS.Timeout | undefined;
}

export interface QueryAnswer {
  text: string;
  data: Record<string, unknown>;
  notes: string[];
}

function sameStamp(a: Stamp | undefined, b: Stamp): boolean {
  return a !== undefined && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

async function diskState(real: string): Promise<DiskState> {
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
 * The databases query_database uses. Statements run in a worker thread (sql-task.ts) that can be
 * stopped; this side knows which version of each file the worker holds, keeps the bytes of every
 * finished write until they are saved (atomically, after a short quiet spell, and on exit), and
 * reloads a file another program changed. A stopped worker loses only the statement it was running.
 */
export class SqliteStore {
  private readonly files = new Map<string, DbFile>();
  private worker: TaskWorker | undefined;
  private generation = 0;
  /** One statement or save at a time: the worker runs one, and a save must not see half a change. */
  private readonly lock = new AsyncLock({ maxPending: 10_000 });

  constructor(private readonly root: string) {
    process.once('exit', () => this.flushSync());
  }

  query(real: string, rel: string, sql: string, params: Bindable | undefined, signal: AbortSignal, readOnly = false): Promise<QueryAnswer> {
    return this.lock.acquire('sql', () => this.run(real, rel, sql, params, signal, readOnly));
  }

  private async run(real: string, rel: string, sql: string, params: Bindable | undefined, signal: AbortSignal, readOnly: boolean): Promise<QueryAnswer> {
    if (signal.aborted) throw new Error('cancelled');
    const state = await diskState(real);
    const file = this.files.get(real) ?? { rel, stamp: undefined, pending: undefined, heldBy: undefined, timer: undefined };
    const holds = file.heldBy === this.generation && this.worker?.alive === true;
    let load: SqlInput['load'];
    let stamp = file.stamp;
    let warning: string | undefined;
    const transfer: ArrayBuffer[] = [];
    if (file.pending) {
      if (state.kind === 'file' && !sameStamp(file.stamp, state.stamp)) {
        warning = `${rel} was changed on disk by another program while this server had unsaved changes; this server's version will be saved over it.`;
      }
      if (!holds) load = { bytes: file.pending, rel }; // copied to the worker: these bytes stay here until saved
    } else if (state.kind === 'file') {
      if (!holds || !sameStamp(file.stamp, state.stamp)) {
        const bytes = await this.readDatabase(real, rel);
        load = { bytes, rel };
        transfer.push(bytes.buffer as ArrayBuffer);
        stamp = state.stamp;
      }
    } else {
      // Only a statement that writes may bring a database into being; a query gets a clear error.
      if (looksReadOnly(sql)) {
        throw new ToolError(
          state.kind === 'missing'
            ? `Database "${rel}" does not exist. ${HOW_TO_CREATE}`
            : `Database "${rel}" is an empty file (0 bytes), not a database yet; a CREATE TABLE statement makes it one.`,
        );
      }
      load = 'new';
      stamp = undefined;
    }
    const out = await this.inWorker({ real, load, sql, params, memoryBytes: memoryMb() * 1024 * 1024, readOnly }, signal, transfer);
    if (load !== undefined) {
      file.stamp = stamp;
      file.heldBy = out.ok ? this.generation : undefined;
    }
    if (!out.ok) {
      if (out.memory) {
        // SQLite's heap grew to the limit; a fresh worker gives that memory back.
        this.recycle();
        throw new ToolError(memoryMessage());
      }
      // A write to a database that did not exist, e.g. an INSERT before any CREATE TABLE: say where the tables come from.
      throw new ToolError(load === 'new' && state.kind === 'missing' && out.message !== READ_ONLY_REFUSED ? `${out.message} (database "${rel}" did not exist; nothing was saved). ${HOW_TO_CREATE}` : out.message);
    }
    if (out.bytes) {
      file.pending = out.bytes;
      this.files.set(real, file);
      this.scheduleSave(real, file);
    } else if (load === 'new') {
      file.heldBy = undefined; // nothing was written: no database comes into being
    } else {
      this.files.set(real, file);
    }
    const notes = [load === 'new' && out.wrote ? `[created ${rel}]` : '', warning ? `[warning: ${warning}]` : ''].filter(Boolean);
    return { text: out.text, data: out.data, notes };
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
      if (err.why === 'cancelled') throw new Error('cancelled');
      throw new ToolError(stoppedMessage(err));
    }
  }

  /** Drops the worker and what it held; the next statement starts a new one from the saved or pending bytes. */
  private recycle(): void {
    this.worker?.terminate();
    this.worker = undefined;
  }

  private async readDatabase(real: string, rel: string): Promise<Uint8Array> {
    const fh = await openInside(this.root, real, READ_FLAGS, rel);
    let bytes: Buffer;
    try {
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
    return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
  }

  /** Saves soon: a burst of writes becomes one file write, and reads never cause one. */
  private scheduleSave(real: string, file: DbFile): void {
    if (file.timer) clearTimeout(file.timer);
    file.timer = setTimeout(() => {
      file.timer = undefined;
      this.lock
        .acquire('sql', () => this.save(real, file))
        .catch((err: Error) => process.stderr.write(`workspace: could not save ${file.rel}: ${err.message}\n`));
    }, SAVE_DELAY_MS);
  }

  private async save(real: string, file: DbFile): Promise<void> {
    const bytes = file.pending;
    if (!bytes) return;
    await writeFileAtomic(real, bytes, undefined, this.root);
    const st = await stat(real);
    file.stamp = { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
    if (file.pending === bytes) file.pending = undefined;
  }

  /** On exit no promise runs any more: pending saves are written synchronously. */
  flushSync(): void {
    for (const [real, file] of this.files) {
      if (file.timer) clearTimeout(file.timer);
      if (!file.pending) continue;
      try {
        writeFileAtomicSync(real, file.pending, this.root);
        file.pending = undefined;
      } catch (err) {
        process.stderr.write(`workspace: could not save ${file.rel}: ${(err as Error).message}\n`);
      }
    }
  }
}
