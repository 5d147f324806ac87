import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { removeTree, repoRoot, startWorkspace, tempWorkspace, textOf, type Running } from './workspace-harness';
import { scaled } from '../support/until';

let ws: string;
let w: Running;

/** Another process using the database: Python's own sqlite3. */
function py(code: string): string {
  const r = spawnSync('python3', ['-c', `import sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\n${code}`, join(ws, 'data.db')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

function rowsOf(text: string): Array<Record<string, unknown>> {
  const [json = ''] = text.split('\n[');
  return (JSON.parse(json) as { rows: Array<Record<string, unknown>> }).rows;
}

async function q(sql: string, params?: unknown, database?: string): Promise<{ text: string; isError: boolean }> {
  const r = await w.call('query_database', { sql, ...(params !== undefined ? { params } : {}), ...(database ? { database } : {}) });
  return { text: textOf(r), isError: r.isError === true };
}

before(async () => {
  ws = tempWorkspace('ws-db-');
  copyFileSync(join(repoRoot(), 'sample-workspace', 'data.db'), join(ws, 'data.db'));
  w = await startWorkspace(ws);
});
after(async () => {
  await w.close();
  removeTree(ws);
});

describe('query_database on the sample database', () => {
  test('queries return rows as JSON, joins work, params bind by position and name', async () => {
    const all = await q('SELECT title, genre FROM books ORDER BY id');
    assert.equal(all.isError, false, all.text);
    assert.equal(rowsOf(all.text).length, 8);
    assert.match(all.text, /^\{"columns":\["title","genre"\],"row_count":8,"rows":\[\n\{"title":"To Kill a Mockingbird","genre":"Fiction"\}/);
    const join_ = await q('SELECT u.name, b.title FROM users u JOIN books b ON b.genre = u.favorite_genre WHERE u.name = ? ORDER BY b.title', [
      'Alice Johnson',
    ]);
    assert.deepEqual(rowsOf(join_.text), [
      { name: 'Alice Johnson', title: 'Neuromancer' },
      { name: 'Alice Johnson', title: 'The Left Hand of Darkness' },
    ]);
    const named = await q('SELECT count(*) AS n FROM books WHERE genre = :genre', { genre: 'Dystopian' });
    assert.deepEqual(rowsOf(named.text), [{ n: 2 }]);
    const info = await q('PRAGMA table_info(users)');
    assert.equal(rowsOf(info.text).length, 4);
  });

  test('a bound parameter stays data: "1; DROP TABLE books" is stored, not run', async () => {
    const ins = await q('INSERT INTO users (name, email, favorite_genre) VALUES (?, ?, ?)', ['1; DROP TABLE books', 'x@example.com', 'Fiction']);
    assert.equal(ins.isError, false, ins.text);
    assert.deepEqual(JSON.parse(ins.text), { changes: 1, lastInsertRowid: 6 });
    assert.deepEqual(rowsOf((await q('SELECT name FROM users WHERE id = 6')).text), [{ name: '1; DROP TABLE books' }]);
    assert.deepEqual(rowsOf((await q('SELECT count(*) AS n FROM books')).text), [{ n: 8 }]);
    assert.deepEqual(rowsOf((await q('SELECT count(*) AS n FROM books WHERE id = ?', ['1; DROP TABLE books'])).text), [{ n: 0 }]);
  });

  test("a script runs as one transaction and reports each statement's outcome", async () => {
    const r = await q(
      "CREATE TABLE shelf (id INTEGER PRIMARY KEY, label TEXT); INSERT INTO shelf (label) VALUES (:label); INSERT INTO shelf (label) VALUES ('b'); SELECT label FROM shelf ORDER BY id;",
      { label: 'a' },
    );
    assert.equal(r.isError, false, r.text);
    const out = JSON.parse(r.text) as { statements: number; committed: boolean; results: Array<Record<string, unknown>> };
    assert.equal(out.statements, 4);
    assert.equal(out.committed, true);
    assert.deepEqual(
      out.results.map((o) => [o.statement, o.changes ?? o.rows]),
      [
        [1, 0],
        [2, 1],
        [3, 1],
        [4, [{ label: 'a' }, { label: 'b' }]],
      ],
    );
    assert.match(String(out.results[0]!.sql), /^CREATE TABLE shelf/);
    assert.equal(py('print(db.execute("SELECT count(*) FROM shelf").fetchone()[0])'), '2', 'saved to the file, for every other program');
  });

  test('a failing statement rolls the whole script back and says which failed and what became of the others', async () => {
    const r = await q("INSERT INTO shelf (label) VALUES ('c'); INSERT INTO nope VALUES (1); DROP TABLE shelf");
    assert.equal(r.isError, true);
    assert.match(r.text, /^Statement 2 of the script failed: SQLite error: no such table: nope\./);
    assert.match(
      r.text,
      /nothing was changed: statement 1 \(INSERT INTO shelf \(label\) VALUES \('c'\);\) ran and was rolled back\. The statements after it did not run\./,
    );
    assert.deepEqual(rowsOf((await q('SELECT count(*) AS n FROM shelf')).text), [{ n: 2 }]);
    const garbage = await q('SELECT 1;garbage here');
    assert.match(garbage.text, /Statement 2 of the script failed: SQLite error: near "garbage": syntax error/);
    const own = await q('BEGIN; DELETE FROM shelf; COMMIT');
    assert.match(own.text, /"BEGIN;" controls the transaction itself; a script already runs as one/);
    const positional = await q('SELECT ?; SELECT ?', [1, 2]);
    assert.match(positional.text, /\? params would not say which statement each belongs to; nothing was run/);
    assert.deepEqual(rowsOf((await q('SELECT count(*) AS n FROM shelf')).text), [{ n: 2 }]);
    // A trailing semicolon or comment, or a ";" inside a string, is still one statement.
    assert.deepEqual(rowsOf((await q("SELECT 'a;b' AS one; -- done\n")).text), [{ one: 'a;b' }]);
  });

  test('SQL errors, empty input and paths outside are clear errors', async () => {
    assert.match((await q('SELEC 1')).text, /SQLite error: near "SELEC": syntax error/);
    assert.match((await q('SELECT * FROM nope')).text, /SQLite error: no such table: nope/);
    assert.match((await q('-- only a comment')).text, /holds no statement/);
    assert.match((await q('SELECT 1', undefined, '../outside.db')).text, /climbs out of the workspace/);
  });

  test('results over 500 rows are capped with the total count', async () => {
    await q('CREATE TABLE numbers (n INTEGER)');
    await q('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 600) INSERT INTO numbers SELECT x FROM c');
    const r = await q('SELECT n FROM numbers');
    assert.equal(rowsOf(r.text).length, 500);
    assert.match(r.text, /"row_count":600/);
    assert.match(r.text, /\[showing 500 of 600 rows; add LIMIT\/OFFSET or a WHERE clause to see others\]$/);
  });

  test('a change made by another program is seen on the next call', async () => {
    // Changed while no server runs, and while one does.
    await w.close();
    py("db.execute(\"INSERT INTO books (title, author, year, genre) VALUES ('Dune', 'Frank Herbert', 1965, 'Science Fiction')\"); db.commit()");
    w = await startWorkspace(ws);
    assert.deepEqual(rowsOf((await q('SELECT count(*) AS n FROM books')).text), [{ n: 9 }]);
    py('db.execute("DELETE FROM books WHERE title = \'Dune\'"); db.commit()');
    assert.deepEqual(rowsOf((await q('SELECT count(*) AS n FROM books')).text), [{ n: 8 }]);
    assert.equal(py('print(db.execute("SELECT count(*) FROM numbers").fetchone()[0])'), '600');
  });

  test('queries never rewrite the file', async () => {
    const before = statSync(join(ws, 'data.db'));
    for (let i = 0; i < 5; i++) await q('SELECT * FROM books');
    await w.close();
    w = await startWorkspace(ws);
    const after_ = statSync(join(ws, 'data.db'));
    assert.equal(after_.mtimeMs, before.mtimeMs);
    assert.equal(after_.ino, before.ino);
  });
});

describe('query_database on missing, empty and corrupt files', () => {
  test('a missing database is an error for a query and created by a write', async () => {
    const miss = await q('SELECT 1', undefined, 'new.db');
    assert.equal(miss.isError, true);
    assert.match(miss.text, /Database "new\.db" does not exist/);
    assert.equal(existsSync(join(ws, 'new.db')), false);
    const made = await q('CREATE TABLE t (a TEXT)', undefined, 'new.db');
    assert.match(made.text, /\[created new\.db\]/);
    await q('INSERT INTO t VALUES (?)', ['hello'], 'new.db');
    assert.deepEqual(rowsOf((await q('SELECT a FROM t', undefined, 'new.db')).text), [{ a: 'hello' }]);
    await w.close(); // a new server sees what this one saved
    w = await startWorkspace(ws);
    assert.deepEqual(rowsOf((await q('SELECT a FROM t', undefined, 'new.db')).text), [{ a: 'hello' }]);
  });

  test('a zero-byte file is a clear error for a query', async () => {
    writeFileSync(join(ws, 'empty.db'), '');
    const r = await q('SELECT * FROM books', undefined, 'empty.db');
    assert.equal(r.isError, true);
    assert.match(r.text, /"empty\.db" is an empty file \(0 bytes\), not a database yet/);
    assert.equal(statSync(join(ws, 'empty.db')).size, 0);
  });

  test('a corrupt file is a clear error, never a fresh empty database', async () => {
    writeFileSync(join(ws, 'text.db'), 'this is not a database at all, just some text\n'.repeat(20));
    const text = await q('SELECT 1', undefined, 'text.db');
    assert.equal(text.isError, true);
    assert.match(text.text, /"text\.db" \(920 bytes\) is not a SQLite database/);
    const header = Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(4080, 0xab)]);
    writeFileSync(join(ws, 'broken.db'), header);
    const broken = await q('SELECT * FROM sqlite_master', undefined, 'broken.db');
    assert.equal(broken.isError, true);
    assert.match(broken.text, /could not be opened as a SQLite database|malformed|not a database/);
    const write = await q('CREATE TABLE x (a)', undefined, 'broken.db');
    assert.equal(write.isError, true);
    assert.equal(statSync(join(ws, 'broken.db')).size, header.length);
  });
});

describe('saving', () => {
  test('killing the server while it saves leaves a whole database, old or new', async () => {
    py(
      'db.execute("CREATE TABLE IF NOT EXISTS big (id INTEGER PRIMARY KEY, b BLOB)"); db.executemany("INSERT INTO big (b) VALUES (randomblob(4000))", [()] * 2000); db.commit()',
    );
    for (const delayMs of [0, 190, 205, 220, 300]) {
      const victim = await startWorkspace(ws);
      const r = await victim.call('query_database', { sql: 'UPDATE books SET year = ? WHERE id = 1', params: [delayMs] });
      assert.ok(!r.isError, textOf(r));
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      process.kill(victim.transport.pid as number, 'SIGKILL');
      await victim.close().catch(() => undefined);
      assert.equal(py('print(db.execute("PRAGMA integrity_check").fetchone()[0])'), 'ok', `after a kill at ${delayMs} ms`);
      assert.equal(py('print(db.execute("SELECT count(*) FROM big").fetchone()[0])'), '2000');
    }
    // Leftover temp files of a killed save are the only trace; the database itself is intact.
    assert.ok(readdirSync(ws).every((n) => n === 'data.db' || !n.startsWith('data.db')));
  });
});

describe('limits: a statement can be stopped and the database lives on', () => {
  const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c';
  let limited: Running;
  const lq = async (sql: string, params?: unknown, timeout = 20_000): Promise<{ text: string; isError: boolean }> => {
    // 20 s: far above the 1 s limit the server has, far below "frozen for good".
    const r = (await limited.client.callTool({ name: 'query_database', arguments: { sql, ...(params ? { params } : {}) } }, undefined, {
      timeout,
    })) as CallToolResult;
    return { text: textOf(r), isError: r.isError === true };
  };

  before(async () => {
    limited = await startWorkspace(ws, { MCP_AGENT_SQL_TIMEOUT_MS: '1000', MCP_AGENT_SQL_MEMORY_MB: '64' });
  });
  after(async () => {
    await limited.close();
  });

  test('an endless recursive CTE is stopped at the time limit, with a message naming it', { timeout: scaled(60_000) }, async () => {
    const r = await lq(RUNAWAY);
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /ran longer than 1 s, query_database's time limit \(MCP_AGENT_SQL_TIMEOUT_MS\), and was stopped/);
    assert.deepEqual(rowsOf((await lq('SELECT count(*) AS n FROM books')).text), [{ n: 8 }]);
  });

  test('a write cut off by the limit changes nothing; the write finished just before it stays', { timeout: scaled(60_000) }, async () => {
    await lq('CREATE TABLE IF NOT EXISTS marks (v TEXT)');
    const done = await lq('INSERT INTO marks VALUES (?)', ['finished']);
    assert.equal(done.isError, false, done.text);
    // Straight after the finished write: the worker holding it is stopped.
    const cut = await lq("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) INSERT INTO marks SELECT 'cut' FROM c");
    assert.match(cut.text, /time limit/);
    assert.deepEqual(rowsOf((await lq('SELECT v FROM marks')).text), [{ v: 'finished' }]);
    await limited.close();
    assert.equal(py('print(db.execute("SELECT group_concat(v) FROM marks").fetchone()[0])'), 'finished');
    assert.equal(py('print(db.execute("PRAGMA integrity_check").fetchone()[0])'), 'ok');
    limited = await startWorkspace(ws, { MCP_AGENT_SQL_TIMEOUT_MS: '1000', MCP_AGENT_SQL_MEMORY_MB: '64' });
  });

  test('a huge value hits the memory cap with a clear message, and the server lives on', { timeout: scaled(60_000) }, async () => {
    // Its own server with a time limit far away: on a loaded machine the 1 s one could come first.
    const roomy = await startWorkspace(ws, { MCP_AGENT_SQL_TIMEOUT_MS: '60000', MCP_AGENT_SQL_MEMORY_MB: '64' });
    try {
      const q = async (sql: string): Promise<CallToolResult> =>
        (await roomy.client.callTool({ name: 'query_database', arguments: { sql } }, undefined, { timeout: scaled(50_000) })) as CallToolResult;
      const r = await q('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 200) SELECT length(group_concat(randomblob(1000000))) FROM c');
      assert.equal(r.isError, true, textOf(r));
      assert.match(textOf(r), /needed more than 64 MiB, query_database's memory limit \(MCP_AGENT_SQL_MEMORY_MB\)/);
      assert.deepEqual(rowsOf(textOf(await q('SELECT count(*) AS n FROM books'))), [{ n: 8 }]);
    } finally {
      await roomy.close();
    }
  });

  test('cancelling a long statement returns at once and the next call is answered', { timeout: scaled(60_000) }, async () => {
    const slow = await startWorkspace(ws, { MCP_AGENT_SQL_TIMEOUT_MS: '600000' });
    try {
      const abort = new AbortController();
      let running!: () => void;
      const isRunning = new Promise<void>((resolve) => (running = resolve));
      // The first heartbeat (after a second) says the statement is running.
      const call = slow.call('query_database', { sql: RUNAWAY }, { signal: abort.signal, onprogress: () => running() });
      await isRunning;
      abort.abort();
      await assert.rejects(call, /abort/i);
      const next = (await slow.client.callTool({ name: 'query_database', arguments: { sql: 'SELECT count(*) AS n FROM books' } }, undefined, {
        timeout: scaled(20_000),
      })) as CallToolResult;
      assert.equal(next.isError, undefined, textOf(next));
      assert.deepEqual(rowsOf(textOf(next)), [{ n: 8 }]);
    } finally {
      await slow.close();
    }
  });
});
