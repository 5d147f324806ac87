import type { Database, Statement, StatementIterator } from 'sql.js';
import { ToolError } from '../lib/results';
import type { Answer, Bindable } from './sql-task';

/** How the worker runs one statement, and the most characters an answer holds. */
export interface ScriptRunner {
  runOne: (db: Database, stmt: Statement, sql: string, params: Bindable | undefined) => Answer;
  maxChars: number;
}

/** Statements that would end or nest the script's own transaction. */
const TRANSACTION_CONTROL = /^\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b/i;
const SAVEPOINT = 'mcp_agent_script';

/**
 * Runs a script (`CREATE TABLE …; INSERT …;`) as one transaction: every statement, in order, each
 * prepared only once the ones before it ran (so it sees the tables they made); the first that fails
 * rolls all of them back, and the error says which it was and what became of each. The answer lists
 * each statement's outcome: its rows, or what it changed. `:name` params bind in every statement that
 * uses the name; `?` params are refused, since they would not say which statement they belong to.
 */
export function runScript(db: Database, first: Statement, it: StatementIterator, params: Bindable | undefined, { runOne, maxChars }: ScriptRunner): Answer {
  if (Array.isArray(params) && params.length > 0) {
    first.free();
    throw new ToolError(
      'sql holds several statements, and ? params would not say which statement each belongs to; nothing was run. Use :name params (an object), which bind in every statement that names them, or run the statements one per call.',
    );
  }
  const outcomes: Array<Record<string, unknown>> = [];
  let wrote = false;
  let chars = 0;
  let number = 1;
  let stmt: Statement | undefined = first;
  db.exec(`SAVEPOINT ${SAVEPOINT}`);
  try {
    while (stmt) {
      const sql = stmt.getSQL();
      try {
        if (TRANSACTION_CONTROL.test(sql)) {
          throw new ToolError(
            `"${short(sql)}" controls the transaction itself; a script already runs as one, so leave out BEGIN, COMMIT, ROLLBACK, SAVEPOINT and RELEASE`,
          );
        }
        const done = runOne(db, stmt, sql, params);
        wrote ||= done.wrote;
        const outcome: Record<string, unknown> = { statement: number, sql: short(sql), ...done.data };
        // Each statement's rows are capped already; the script's answer as a whole is capped too.
        const size = JSON.stringify(outcome).length;
        if (chars + size > maxChars && 'rows' in outcome)
          Object.assign(outcome, { rows: [], rows_left_out: 'the answer is over its size cap; query them alone' });
        chars += Math.min(size, maxChars);
        outcomes.push(outcome);
      } finally {
        stmt.free();
      }
      number++;
      stmt = nextStatement(it);
    }
    db.exec(`RELEASE ${SAVEPOINT}`);
  } catch (err) {
    db.exec(`ROLLBACK TO ${SAVEPOINT}; RELEASE ${SAVEPOINT}`);
    throw new ToolError(failure(err, number, outcomes));
  }
  const data = { statements: outcomes.length, committed: true, results: outcomes };
  const text = `{"statements":${outcomes.length},"committed":true,"results":[\n${outcomes.map((o) => JSON.stringify(o)).join(',\n')}\n]}`;
  return { text, wrote, data };
}

function failure(err: unknown, number: number, ran: ReadonlyArray<Record<string, unknown>>): string {
  const why = (err as Error).message;
  const before = ran.map((o) => `statement ${String(o.statement)} (${String(o.sql)}) ran and was rolled back`);
  return [
    `Statement ${number} of the script failed: ${why}.`,
    'The script runs as one transaction, so nothing was changed' + (before.length ? `: ${before.join('; ')}` : '') + '.',
    'The statements after it did not run.',
  ].join(' ');
}

function short(sql: string): string {
  const line = sql.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** The next statement of `it`, prepared, or undefined at the end; a statement SQLite cannot read is a ToolError. */
export function nextStatement(it: StatementIterator): Statement | undefined {
  try {
    const next = it.next();
    return next.done ? undefined : next.value;
  } catch (err) {
    throw new ToolError(`SQLite error: ${(err as Error).message}`);
  }
}
