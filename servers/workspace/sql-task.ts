import type { Database, SqlJsStatic, Statement } from 'sql.js';
import { ToolError } from '../lib/results';
import { locateWasm } from '../../src/node/sql-wasm';
import { looksReadOnly, READ_ONLY_REFUSED } from '../../src/node/sql-read-only';
import { nextStatement, runScript } from './sql-script';

/**
 * The SQL worker thread: it holds the open databases (sql.js keeps a whole database in memory) and
 * runs one statement at a time. The main thread can terminate it mid-statement (a time limit, a
 * cancel, a memory cap); everything held here is then lost, which is why every statement that
 * changed a database hands its new bytes back at once: the main thread keeps and saves those.
 */

export type Bindable = (number | string | null)[] | Record<string, number | string | null>;

export interface SqlInput {
  real: string;
  /** Open this copy first, replacing the one held: bytes of the file (or of unsaved writes), or a new database. */
  load?: { bytes: Uint8Array; rel: string } | 'new';
  sql: string;
  params?: Bindable;
  /** SQLite's hard heap limit: past it, a statement fails with "out of memory" and nothing else suffers. */
  memoryBytes: number;
  /**
   * The host ran this call without asking because its SQL reads only: SQLite's query_only then
   * refuses any change, so a statement that only looked read-only cannot write.
   */
  readOnly?: boolean;
}

export type SqlOutput =
  { ok: true; text: string; data: Record<string, unknown>; wrote: boolean; bytes?: Uint8Array } | { ok: false; message: string; memory: boolean };

/** What one statement (or a script) answers: its text for the model, its data, and whether it changed the database. */
export type Answer = Omit<Extract<SqlOutput, { ok: true }>, 'ok'>;

const MAX_ROWS = 500;
/** The rows of one answer stop here (a model reads them; a megabyte is already a lot). */
const MAX_ANSWER_CHARS = 1024 * 1024;
/** A longer text value is cut in the answer and says how much is missing. */
const MAX_CELL_CHARS = 64 * 1024;

let engine: Promise<SqlJsStatic> | undefined;
const held = new Map<string, Database>();

function sqlJs(): Promise<SqlJsStatic> {
  engine ??= import('sql.js').then((m) => m.default({ locateFile: locateWasm }));
  return engine;
}

/** Whether SQL text is left after the statement just read: anything but whitespace, `;` and comments. */
function moreAfter(rest: string): boolean {
  return rest.replace(/--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|[\s;]+/g, '') !== '';
}

function jsonValue(v: unknown): unknown {
  if (v instanceof Uint8Array) {
    return { blob_bytes: v.length, hex: Buffer.from(v.subarray(0, 32)).toString('hex') + (v.length > 32 ? '…' : '') };
  }
  if (typeof v === 'string' && v.length > MAX_CELL_CHARS) {
    return `${v.slice(0, MAX_CELL_CHARS)}…[${v.length - MAX_CELL_CHARS} more characters]`;
  }
  return v;
}

function scalar(db: Database, sql: string): number {
  return Number(db.exec(sql)[0]?.values[0]?.[0] ?? 0);
}

function rowsAnswer(db: Database, stmt: Statement, sql: string, before: number): Answer {
  const columns = stmt.getColumnNames();
  const keys = columns.map((c, i) => (columns.indexOf(c) === i ? c : `${c}_${i + 1}`));
  const rows: Record<string, unknown>[] = [];
  const lines: string[] = [];
  let chars = 0;
  let total = 0;
  let cutBySize = false;
  while (stmt.step()) {
    total++;
    if (rows.length >= MAX_ROWS || cutBySize) continue;
    const values = stmt.get();
    const row = Object.fromEntries(keys.map((k, i) => [k, jsonValue(values[i])]));
    const line = JSON.stringify(row);
    if (chars + line.length > MAX_ANSWER_CHARS && rows.length > 0) {
      cutBySize = true;
      continue;
    }
    rows.push(row);
    lines.push(line);
    chars += line.length;
  }
  const wrote = !looksReadOnly(sql) || scalar(db, 'SELECT total_changes()') !== before;
  const data = { columns: keys, rows, row_count: total, truncated: total > rows.length };
  let note = '';
  if (total > rows.length) {
    const why = cutBySize ? ` (the answer is capped at ${MAX_ANSWER_CHARS / 1024 / 1024} MiB)` : '';
    note = `\n[showing ${rows.length} of ${total} rows${why}; add LIMIT/OFFSET or a WHERE clause to see others]`;
  }
  return { text: `{"columns":${JSON.stringify(keys)},"row_count":${total},"rows":[\n${lines.join(',\n')}\n]}${note}`, wrote, data };
}

function execute(db: Database, sql: string, params: Bindable | undefined, readOnly: boolean): Answer {
  if (!readOnly) return executeAll(db, sql, params);
  db.exec('PRAGMA query_only = 1');
  try {
    return executeAll(db, sql, params);
  } catch (err) {
    if (err instanceof ToolError && /attempt to write a readonly database/i.test(err.message)) throw new ToolError(READ_ONLY_REFUSED);
    throw err;
  } finally {
    db.exec('PRAGMA query_only = 0');
  }
}

/** One statement as before; several as a script, in one transaction (sql-script.ts). */
function executeAll(db: Database, sql: string, params: Bindable | undefined): Answer {
  const it = db.iterateStatements(sql);
  const first = nextStatement(it);
  if (!first) throw new ToolError('sql holds no statement.');
  if (moreAfter(it.getRemainingSQL())) return runScript(db, first, it, params, { runOne: runStatement, maxChars: MAX_ANSWER_CHARS });
  try {
    return runStatement(db, first, sql, params);
  } finally {
    first.free();
  }
}

/** Runs one prepared statement (the caller frees it): its rows, or what it changed. */
function runStatement(db: Database, stmt: Statement, sql: string, params: Bindable | undefined): Answer {
  try {
    const before = { changes: scalar(db, 'SELECT total_changes()'), schema: scalar(db, 'PRAGMA schema_version') };
    if (params !== undefined) stmt.bind(params);
    if (stmt.getColumnNames().length > 0) return rowsAnswer(db, stmt, sql, before.changes);
    stmt.step();
    const changes = scalar(db, 'SELECT total_changes()') - before.changes;
    const schemaChanged = scalar(db, 'PRAGMA schema_version') !== before.schema;
    const lastInsertRowid = scalar(db, 'SELECT last_insert_rowid()');
    const wrote = changes > 0 || schemaChanged || !looksReadOnly(sql);
    const data = { changes, lastInsertRowid };
    return { text: JSON.stringify(data), wrote, data };
  } catch (err) {
    if (err instanceof ToolError) throw err;
    throw new ToolError(`SQLite error: ${(err as Error).message}`);
  }
}

async function open(input: SqlInput): Promise<Database> {
  const SQL = await sqlJs();
  if (input.load === undefined) {
    const db = held.get(input.real);
    if (db) return db;
    throw new Error(`query_database: the worker does not hold ${input.real}`);
  }
  held.get(input.real)?.close();
  held.delete(input.real);
  let db: Database;
  if (input.load === 'new') {
    db = new SQL.Database();
  } else {
    try {
      db = new SQL.Database(input.load.bytes);
      db.exec('PRAGMA schema_version');
    } catch (err) {
      throw new ToolError(`"${input.load.rel}" could not be opened as a SQLite database: ${(err as Error).message}`);
    }
  }
  // A process-wide limit in SQLite, but set on each open: export() reopens and resets pragmas.
  db.exec(`PRAGMA hard_heap_limit = ${Math.floor(input.memoryBytes)}`);
  held.set(input.real, db);
  return db;
}

export async function runSql(input: SqlInput): Promise<{ result: SqlOutput; transfer?: ArrayBuffer[] }> {
  try {
    const db = await open(input);
    const done = execute(db, input.sql, input.params, input.readOnly === true);
    if (!done.wrote) return { result: { ok: true, ...done } };
    const exported = db.export();
    // Handed over, not copied; a view into a larger buffer would hand over the rest too.
    const whole = exported.byteOffset === 0 && exported.byteLength === exported.buffer.byteLength;
    const bytes = whole ? exported : exported.slice();
    return { result: { ok: true, ...done, bytes }, transfer: [bytes.buffer as ArrayBuffer] };
  } catch (err) {
    const message = (err as Error).message;
    if (!(err instanceof ToolError)) throw err;
    return { result: { ok: false, message, memory: /\bout of memory\b/i.test(message) } };
  }
}
