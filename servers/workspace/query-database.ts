import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Database, Statement } from 'sql.js';
import { guarded, textResult, ToolError } from '../lib/results';
import type { Sandbox } from '../../src/common/sandbox';
import { SqliteStore, type OpenDb } from './sqlite-store';
import { resolveWrite } from './write-file';

const MAX_ROWS = 500;
const DEFAULT_DB = 'data.db';

type Param = string | number | boolean | null;
const param = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** Statements that cannot change the file. Anything else is saved afterwards, to be safe. */
function looksReadOnly(sql: string): boolean {
  const text = sql.replace(/^(\s+|--[^\n]*\n?|\/\*[\s\S]*?\*\/)+/, '');
  const word = /^[A-Za-z]+/.exec(text)?.[0].toUpperCase();
  if (word === 'SELECT' || word === 'VALUES' || word === 'EXPLAIN') return true;
  if (word === 'WITH') return !/\b(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(text);
  if (word === 'PRAGMA') return !/[=(]/.test(text.replace(/\b(table_info|table_xinfo|index_list|index_info|index_xinfo|foreign_key_list|foreign_key_check|integrity_check|quick_check)\s*\(/gi, ''));
  return false;
}

/** The single statement in `sql`, prepared; several statements are refused, never run. */
function prepareOne(db: Database, sql: string): Statement {
  const it = db.iterateStatements(sql);
  const first = it.next();
  if (first.done) throw new ToolError('sql holds no statement.');
  const stmt = first.value;
  const rest = it.getRemainingSQL();
  if (rest.trim() === '') return stmt;
  let more = false;
  try {
    const second = db.iterateStatements(rest).next();
    more = !second.done;
    if (more) second.value.free();
  } catch {
    more = true; // text after the first statement that is not even valid SQL: still a second statement
  }
  if (!more) return stmt;
  stmt.free();
  throw new ToolError(
    `sql holds more than one statement (a second one begins "${rest.trim().slice(0, 40)}"); nothing was run. ` +
      'query_database runs exactly one statement per call; pass values through params, never inside the SQL text.',
  );
}

/** sql.js wants `:name` keys; people write `name`. Unused keys are ignored by SQLite, so bind all spellings. */
function bindable(params: Param[] | Record<string, Param> | undefined): (number | string | null)[] | Record<string, number | string | null> | undefined {
  const value = (v: Param): number | string | null => (typeof v === 'boolean' ? (v ? 1 : 0) : v);
  if (params === undefined) return undefined;
  if (Array.isArray(params)) return params.map(value);
  const out: Record<string, number | string | null> = {};
  for (const [k, v] of Object.entries(params)) {
    if (/^[:$@]/.test(k)) out[k] = value(v);
    else for (const p of [':', '$', '@']) out[p + k] = value(v);
  }
  return out;
}

function jsonValue(v: unknown): unknown {
  if (v instanceof Uint8Array) {
    return { blob_bytes: v.length, hex: Buffer.from(v.subarray(0, 32)).toString('hex') + (v.length > 32 ? '…' : '') };
  }
  return v;
}

function scalar(db: Database, sql: string): number {
  return Number(db.exec(sql)[0]?.values[0]?.[0] ?? 0);
}

function execute(entry: OpenDb, sql: string, params: ReturnType<typeof bindable>): { text: string; wrote: boolean; data: Record<string, unknown> } {
  const db = entry.db;
  let stmt: Statement;
  try {
    stmt = prepareOne(db, sql);
  } catch (err) {
    if (err instanceof ToolError) throw err;
    throw new ToolError(`SQLite error: ${(err as Error).message}`);
  }
  try {
    const before = { changes: scalar(db, 'SELECT total_changes()'), schema: scalar(db, 'PRAGMA schema_version') };
    if (params !== undefined) stmt.bind(params);
    const columns = stmt.getColumnNames();
    if (columns.length > 0) {
      const rows: Record<string, unknown>[] = [];
      let total = 0;
      const keys = columns.map((c, i) => (columns.indexOf(c) === i ? c : `${c}_${i + 1}`));
      while (stmt.step()) {
        total++;
        if (rows.length < MAX_ROWS) {
          const values = stmt.get();
          rows.push(Object.fromEntries(keys.map((k, i) => [k, jsonValue(values[i])])));
        }
      }
      const wrote = !looksReadOnly(sql) || scalar(db, 'SELECT total_changes()') !== before.changes;
      const data = { columns: keys, rows, row_count: total, truncated: total > rows.length };
      const note = total > rows.length ? `\n[showing ${rows.length} of ${total} rows; add LIMIT/OFFSET or a WHERE clause to see others]` : '';
      const body = rows.map((r) => JSON.stringify(r)).join(',\n');
      return { text: `{"columns":${JSON.stringify(keys)},"row_count":${total},"rows":[\n${body}\n]}${note}`, wrote, data };
    }
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
  } finally {
    stmt.free();
  }
}

export function registerQueryDatabase(server: McpServer, sandbox: Sandbox, store: SqliteStore): void {
  server.registerTool(
    'query_database',
    {
      title: 'Query SQLite database',
      description:
        `Run one SQL statement on a SQLite database file in the workspace (default ${DEFAULT_DB}). ` +
        `Queries (SELECT, PRAGMA, EXPLAIN) return rows as JSON, at most ${MAX_ROWS} with the total count; other ` +
        'statements return {changes, lastInsertRowid} and are saved to the file. Always pass values through ' +
        'params (? with an array, or :name with an object). A missing database file is created by a statement ' +
        'that writes (e.g. CREATE TABLE), never by a query.',
      inputSchema: {
        sql: z.string().min(1).describe('Exactly one SQL statement.'),
        params: z
          .union([z.array(param), z.record(z.string(), param)])
          .optional()
          .describe('Values bound to ? (array) or :name (object) placeholders.'),
        database: z.string().min(1).optional().describe(`Database file, relative to the workspace. Default ${DEFAULT_DB}.`),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    guarded('query_database', async ({ sql, params, database }) => {
      const path = database ?? DEFAULT_DB;
      const target = await resolveWrite(sandbox, path, false);
      const state = await store.diskState(target.real);
      let entry: OpenDb;
      let warning: string | undefined;
      let created = false;
      const pending = store.cached(target.real);
      if (state.kind === 'file') {
        ({ entry, warning } = await store.load(target.real, target.rel, state));
      } else if (pending?.dirty) {
        entry = pending; // written moments ago, not saved yet
      } else {
        store.forget(target.real);
        // Only a statement that writes may bring a database into being; a query gets a clear error.
        const probe = await store.create(target.real, target.rel);
        if (looksReadOnly(sql)) {
          store.forget(target.real);
          throw new ToolError(
            state.kind === 'missing'
              ? `Database "${target.rel}" does not exist. Check the name with search_files pattern "*.db", or create it with a CREATE TABLE statement.`
              : `Database "${target.rel}" is an empty file (0 bytes), not a database yet; a CREATE TABLE statement makes it one.`,
          );
        }
        entry = probe;
        created = true;
      }
      let result;
      try {
        result = execute(entry, sql, bindable(params));
      } catch (err) {
        if (created) store.forget(target.real);
        throw err;
      }
      if (result.wrote) store.markDirty(entry);
      else if (created) store.forget(target.real);
      const notes = [created && result.wrote ? `[created ${target.rel}]` : '', warning ? `[warning: ${warning}]` : ''].filter(Boolean);
      return textResult([result.text, ...notes].join('\n'), result.data);
    }),
  );
}
