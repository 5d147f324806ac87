import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { errorResult, guarded, textResult, ToolError } from '../lib/results';
import type { Sandbox } from '../../src/node/sandbox';
import type { SqliteStore } from './sqlite-store';
import type { Bindable } from './sql-task';
import { resolveWrite } from './write-file';
import { READ_ONLY_CALL, READ_ONLY_CALLS, READ_ONLY_REFUSED, WOULD_WRITE } from '../../src/node/sql-read-only';

/** The most rows one answer shows (sql-task.ts cuts them). */
const MAX_ROWS = 500;
const DEFAULT_DB = 'data.db';

type Param = string | number | boolean | null;
const param = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** sql.js wants `:name` keys; people write `name`. Unused keys are ignored by SQLite, so bind all spellings. */
function bindable(params: Param[] | Record<string, Param> | undefined): Bindable | undefined {
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

export function registerQueryDatabase(server: McpServer, sandbox: Sandbox, store: SqliteStore): void {
  server.registerTool(
    'query_database',
    {
      title: 'Query SQLite database',
      description:
        `Run SQL on a SQLite database file in the workspace (default ${DEFAULT_DB}). ` +
        `Queries (SELECT, PRAGMA, EXPLAIN) return rows as JSON, at most ${MAX_ROWS} with the total count; other ` +
        'statements return {changes, lastInsertRowid} and are saved to the file. Several statements separated by ";" ' +
        "run as a script in one transaction: all of them or, when one fails, none; the answer gives each one's outcome. " +
        'Always pass values through params (? with an array for one statement, or :name with an object). A missing ' +
        'database file is created by a statement that writes (e.g. CREATE TABLE), never by a query. A call is stopped ' +
        'after a time limit (default 30 s) or a memory limit, and then changes nothing.',
      inputSchema: {
        sql: z.string().min(1).describe('One SQL statement, or a script of several separated by ";" (run as one transaction).'),
        params: z
          .union([z.array(param), z.record(z.string(), param)])
          .optional()
          .describe('Values bound to ? (array) or :name (object) placeholders.'),
        database: z.string().min(1).optional().describe(`Database file, relative to the workspace. Default ${DEFAULT_DB}.`),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      // Tells MCP Agent's host it may run a read-only `sql` without asking, because a call it marks
      // with READ_ONLY_CALL is then held to reading by SQLite itself (query_only).
      _meta: { [READ_ONLY_CALLS]: 'sql' },
    },
    guarded(
      'query_database',
      async ({ sql, params, database }, extra) => {
        const target = await resolveWrite(sandbox, database ?? DEFAULT_DB, false);
        const readOnly = (extra._meta as Record<string, unknown> | undefined)?.[READ_ONLY_CALL] === true;
        try {
          const answer = await store.query(target.real, target.rel, sql, bindable(params), extra.signal, readOnly);
          return textResult([answer.text, ...answer.notes].join('\n'), answer.data);
        } catch (err) {
          // SQLite refused a write in a read-only call: the host asks the person, then calls again unmarked.
          if (err instanceof ToolError && err.message === READ_ONLY_REFUSED) return { ...errorResult(err.message), _meta: { [WOULD_WRITE]: true } };
          throw err;
        }
      },
      { heartbeat: true },
    ), // a long statement reports that it still runs, each second
  );
}
