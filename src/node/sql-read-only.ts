/** A tool's `_meta` key: which argument holds SQL that, when it only reads, may run without asking. */
export const READ_ONLY_CALLS = 'mcpAgent/readOnlyCalls';
/** A call's `_meta` key: the host ran it without asking, so the server must refuse any write. */
export const READ_ONLY_CALL = 'mcpAgent/readOnly';
/** A result's `_meta` key: SQLite refused the read-only call because the statement writes; nothing changed. */
export const WOULD_WRITE = 'mcpAgent/wouldWrite';
/** Said when SQLite refuses a write in a call the host marked read-only; nothing was changed. */
export const READ_ONLY_REFUSED =
  'The statement changes the database, and this call was marked read-only by the host (it runs reads without asking the person), so SQLite refused it; nothing was changed.';

/**
 * Statements that cannot change the file. Anything else is saved afterwards, to be safe; so is a
 * script of several statements, which this first-word look cannot judge (the worker counts what it changed).
 */
export function looksReadOnly(sql: string): boolean {
  if (isScript(sql)) return false;
  const text = sql.replace(/^(\s+|--[^\n]*\n?|\/\*[\s\S]*?\*\/)+/, '');
  const word = /^[A-Za-z]+/.exec(text)?.[0].toUpperCase();
  if (word === 'SELECT' || word === 'VALUES' || word === 'EXPLAIN') return true;
  if (word === 'WITH') return !/\b(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(text);
  if (word === 'PRAGMA')
    return !/[=(]/.test(
      text.replace(/\b(table_info|table_xinfo|index_list|index_info|index_xinfo|foreign_key_list|foreign_key_check|integrity_check|quick_check)\s*\(/gi, ''),
    );
  return false;
}

/** True when text follows a `;` outside quotes and comments: more than one statement (or a trigger's body). */
function isScript(sql: string): boolean {
  const bare = sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\]|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/g, ' ');
  return /;\s*[^\s;]/.test(bare);
}
