import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync, existsSync, lstatSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { FakeAnthropicApi, isToolResultTurn, lastUserText, type MessagesBody, type Reply } from '../fakes/anthropic-api';
import { createSampleDb, SAMPLE_BOOKS, SAMPLE_USERS, sampleDbBytes } from '../../src/node/sample-db';
import { locateWasm } from '../../src/node/sql-wasm';
import { cli } from './helpers/cli-process';
import { removeTree, repoRoot, startWorkspace, tempWorkspace, textOf, type Running } from './workspace-harness';

type Row = Record<string, unknown>;

function rowsOf(text: string): Row[] {
  const [json = ''] = text.split('\n[');
  return (JSON.parse(json) as { rows: Row[] }).rows;
}

/** Every table's rows of a database file, to compare two files by content rather than by bytes. */
async function contents(bytes: Uint8Array): Promise<Record<string, unknown[]>> {
  const SQL = await initSqlJs({ locateFile: locateWasm });
  const db = new SQL.Database(bytes);
  try {
    const out: Record<string, unknown[]> = {};
    const [schema] = db.exec("SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name");
    out.schema = schema?.values ?? [];
    for (const table of ['books', 'users']) out[table] = db.exec(`SELECT * FROM ${table} ORDER BY id`)[0]?.values ?? [];
    return out;
  } finally {
    db.close();
  }
}

describe('the demo database (the agent-mcp-v1 seed)', () => {
  let ws: string;
  let w: Running;
  const q = async (sql: string, params?: unknown, database?: string): Promise<{ text: string; isError: boolean }> => {
    const r = await w.call('query_database', { sql, ...(params !== undefined ? { params } : {}), ...(database ? { database } : {}) });
    return { text: textOf(r), isError: r.isError === true };
  };

  before(async () => {
    ws = tempWorkspace('ws-seed-');
    const made = await createSampleDb(ws);
    assert.equal(made.kind, 'created');
    w = await startWorkspace(ws);
  });
  after(async () => {
    await w.close();
    removeTree(ws);
  });

  test('sample-workspace/data.db is what createSampleDb makes: the seed schema and rows', async () => {
    const committed = await contents(readFileSync(join(repoRoot(), 'sample-workspace', 'data.db')));
    assert.deepEqual(committed, await contents(await sampleDbBytes()));
    assert.deepEqual(
      committed.books?.map((b) => (b as unknown[])[1]),
      ['To Kill a Mockingbird', 'The Great Gatsby', '1984', 'Brave New World', 'Neuromancer', 'The Left Hand of Darkness', 'The Hobbit', 'Pride and Prejudice'],
    );
  });

  test('books(id, title, author, year, genre) and users(id, name, email, favorite_genre), nothing else required', async () => {
    const cols = async (t: string): Promise<string[]> => rowsOf((await q(`PRAGMA table_info(${t})`)).text).map((r) => String(r.name));
    assert.deepEqual(await cols('books'), ['id', 'title', 'author', 'year', 'genre']);
    assert.deepEqual(await cols('users'), ['id', 'name', 'email', 'favorite_genre']);
    const genres = rowsOf((await q('SELECT DISTINCT genre FROM books ORDER BY genre')).text).map((r) => r.genre);
    assert.deepEqual(genres, ['Dystopian', 'Fantasy', 'Fiction', 'Romance', 'Science Fiction']);
    assert.equal(SAMPLE_BOOKS.length, 8);
    assert.equal(SAMPLE_USERS.length, 5);
  });

  test("every user's favorite genre joins onto at least one book", async () => {
    const r = await q('SELECT u.name, count(b.id) AS n FROM users u LEFT JOIN books b ON b.genre = u.favorite_genre GROUP BY u.id ORDER BY u.id');
    const counts = rowsOf(r.text);
    assert.equal(counts.length, 5);
    for (const c of counts) assert.ok(Number(c.n) >= 1, `${String(c.name)} has no book of their genre`);
  });

  test('the demo: "Add Dune to the database and show all sci-fi books", seed-shaped SQL as written', async () => {
    const before_ = rowsOf((await q("SELECT title FROM books WHERE title = 'Dune'")).text);
    assert.deepEqual(before_, [], 'the sample must not already hold Dune, or the demo adds a second one');
    const ins = await q("INSERT INTO books (title, author, year, genre) VALUES ('Dune', 'Frank Herbert', 1965, 'Science Fiction')");
    assert.equal(ins.isError, false, ins.text);
    assert.deepEqual(JSON.parse(ins.text), { changes: 1, lastInsertRowid: 9 });
    const scifi = await q("SELECT title, author, year FROM books WHERE genre = 'Science Fiction' ORDER BY year");
    assert.deepEqual(rowsOf(scifi.text), [
      { title: 'Dune', author: 'Frank Herbert', year: 1965 },
      { title: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin', year: 1969 },
      { title: 'Neuromancer', author: 'William Gibson', year: 1984 },
    ]);
  });

  test('the parameterised queries work with ? and :name', async () => {
    const byAuthor = await q('SELECT title FROM books WHERE author = ?', ['George Orwell']);
    assert.deepEqual(rowsOf(byAuthor.text), [{ title: '1984' }]);
    const after1950 = await q('SELECT title FROM books WHERE year > ? AND genre = ? ORDER BY year', [1950, 'Science Fiction']);
    assert.deepEqual(
      rowsOf(after1950.text).map((r) => r.title),
      ['Dune', 'The Left Hand of Darkness', 'Neuromancer'],
    );
    const forReader = await q('SELECT b.title FROM books b JOIN users u ON u.favorite_genre = b.genre WHERE u.email = :email ORDER BY b.title', {
      email: 'bob@example.com',
    });
    assert.deepEqual(rowsOf(forReader.text), [{ title: 'The Hobbit' }]);
  });

  test('a call the host marked read-only cannot write, even with SQL that does', async () => {
    const marked = async (sql: string): Promise<{ text: string; isError: boolean; wouldWrite: unknown }> => {
      const r = await w.client.callTool({ name: 'query_database', arguments: { sql }, _meta: { 'mcpAgent/readOnly': true } });
      return { text: textOf(r as CallToolResult), isError: r.isError === true, wouldWrite: r._meta?.['mcpAgent/wouldWrite'] };
    };
    const read = await marked("SELECT count(*) AS n FROM books WHERE genre = 'Fantasy'");
    assert.deepEqual(rowsOf(read.text), [{ n: 1 }]);
    const script = await marked('SELECT count(*) AS n FROM books; SELECT count(*) AS m FROM users');
    assert.equal(script.wouldWrite, undefined, 'a script that only reads runs without asking');
    assert.equal(script.isError, false, script.text);
    const before_ = rowsOf((await q('SELECT count(*) AS n FROM books')).text)[0]?.n;
    assert.equal(read.wouldWrite, undefined);
    for (const sql of [
      "INSERT INTO books (title, author) VALUES ('Sneaky', 'X')",
      'DROP TABLE users',
      'CREATE TABLE t (a)',
      'PRAGMA user_version = 7',
      // A script: its reads first, its write last; SQLite refuses the write and the reads change nothing either.
      "SELECT count(*) FROM books; CREATE TABLE t (a); INSERT INTO books (title, author) VALUES ('Sneaky', 'X')",
    ]) {
      const r = await marked(sql);
      assert.equal(r.isError, true, sql);
      assert.equal(r.wouldWrite, true, sql);
      assert.match(r.text, /marked read-only by the host .* SQLite refused it; nothing was changed/);
    }
    assert.deepEqual(rowsOf((await q('PRAGMA user_version')).text), [{ user_version: 0 }]);
    assert.equal(rowsOf((await q('SELECT count(*) AS n FROM books')).text)[0]?.n, before_);
    assert.equal(rowsOf((await q("SELECT count(*) AS n FROM sqlite_master WHERE name IN ('users', 't')")).text)[0]?.n, 1);
    // The next unmarked (approved) write works again: query_only was only for that call.
    const ins = await q("INSERT INTO users (name, email, favorite_genre) VALUES ('Frank', 'frank@example.com', 'Fantasy')");
    assert.equal(ins.isError, false, ins.text);
    const tools = await w.client.listTools();
    assert.equal(tools.tools.find((t) => t.name === 'query_database')?._meta?.['mcpAgent/readOnlyCalls'], 'sql');
  });

  test('a missing data.db says how to create the demo database, for a query and for a write', async () => {
    const empty = tempWorkspace('ws-nodb-');
    const other = await startWorkspace(empty);
    try {
      const read = await other.call('query_database', { sql: 'SELECT * FROM books' });
      assert.equal(read.isError, true);
      assert.match(textOf(read), /Database "data\.db" does not exist\..*"MCP Agent: Create Sample Database".*--create-sample-db/);
      const write = await other.call('query_database', { sql: "INSERT INTO books (title, author) VALUES ('Dune', 'Frank Herbert')" });
      assert.equal(write.isError, true);
      assert.match(textOf(write), /no such table: books.*did not exist; nothing was saved.*Create Sample Database/);
      assert.equal(existsSync(join(empty, 'data.db')), false, 'a failed write must not leave an empty database behind');
    } finally {
      await other.close();
      removeTree(empty);
    }
  });
});

describe('createSampleDb never replaces anything', () => {
  let ws: string;
  before(() => {
    ws = tempWorkspace('ws-sample-');
  });
  after(() => removeTree(ws));

  test('an existing data.db is left byte for byte', async () => {
    writeFileSync(join(ws, 'data.db'), 'my own data');
    const r = await createSampleDb(ws);
    assert.equal(r.kind, 'exists');
    assert.equal(readFileSync(join(ws, 'data.db'), 'utf8'), 'my own data');
  });

  test('a dangling symlink named data.db is not followed', async () => {
    const sub = join(ws, 'sub');
    mkdirSync(sub);
    const target = join(ws, 'outside-target.db');
    symlinkSync(target, join(sub, 'data.db'));
    const r = await createSampleDb(sub);
    assert.equal(r.kind, 'exists');
    assert.equal(existsSync(target), false);
    assert.ok(lstatSync(join(sub, 'data.db')).isSymbolicLink());
    assert.equal(readlinkSync(join(sub, 'data.db')), target);
  });

  test('a folder that does not exist is refused with why', async () => {
    const r = await createSampleDb(join(ws, 'no-such-folder'));
    assert.equal(r.kind, 'refused');
    assert.match(r.kind === 'refused' ? r.reason : '', /does not exist/);
  });
});

describe('mcp-agent --create-sample-db', () => {
  test('creates data.db without needing a key, then leaves it alone', async () => {
    const ws = tempWorkspace('ws-cli-sample-');
    try {
      const first = await cli(['--workspace', ws, '--create-sample-db'], {});
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stderr, /created .*data\.db with 8 books in 5 genres and 5 users/);
      assert.deepEqual(await contents(readFileSync(join(ws, 'data.db'))), await contents(await sampleDbBytes()));
      writeFileSync(join(ws, 'data.db'), 'changed by the person');
      const again = await cli(['--workspace', ws, '--create-sample-db'], {});
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stderr, /did not create .*data\.db already exists there; it was left unchanged/);
      assert.equal(readFileSync(join(ws, 'data.db'), 'utf8'), 'changed by the person');
    } finally {
      removeTree(ws);
    }
  });
});

/** The model's side of the seed's demo: an INSERT, then a parameterised SELECT, then an answer quoting the rows. */
function demoModel(body: MessagesBody): Reply {
  const calls = body.messages.filter((m) => m.role === 'assistant').length;
  if (!isToolResultTurn(body)) {
    if (!/Add Dune to the database and show all sci-fi books/.test(lastUserText(body))) return { text: 'Ask me about books.' };
    return {
      toolUses: [
        {
          name: 'workspace__query_database',
          input: { sql: "INSERT INTO books (title, author, year, genre) VALUES ('Dune', 'Frank Herbert', 1965, 'Science Fiction')" },
        },
      ],
    };
  }
  if (calls % 2 === 1) {
    return {
      toolUses: [
        {
          name: 'workspace__query_database',
          input: { sql: 'SELECT title, author, year FROM books WHERE genre = ? ORDER BY year', params: ['Science Fiction'] },
        },
      ],
    };
  }
  return { text: `The sci-fi books now: ${lastUserText(body)}` };
}

describe('the seed demo in the CLI, message by message', () => {
  test('"Add Dune to the database and show all sci-fi books" on a fresh sample database', async () => {
    const api = new FakeAnthropicApi(demoModel);
    const base = await api.start();
    const ws = tempWorkspace('ws-cli-demo-');
    try {
      assert.equal((await cli(['--workspace', ws, '--create-sample-db'], {})).code, 0);
      const r = await cli(
        ['--workspace', ws],
        { ANTHROPIC_API_KEY: 'sk-demo', ANTHROPIC_BASE_URL: base },
        'Add Dune to the database and show all sci-fi books\ny\nexit\n',
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal((r.stdout.match(/Allow\?/g) ?? []).length, 1, 'the INSERT asks first; the SELECT only reads, so it runs at once');
      assert.match(r.stdout, /Change data\.db with SQL[^]*INSERT INTO books[^]*Allow\?/);
      assert.match(r.stdout, /\{"changes":1,"lastInsertRowid":9\}/);
      assert.match(r.stdout, /The sci-fi books now: .*"title":"Dune".*"title":"The Left Hand of Darkness".*"title":"Neuromancer"/s);
      assert.doesNotMatch(r.stdout, /NOT NULL constraint failed/);
      const SQL = await initSqlJs({ locateFile: locateWasm });
      const db = new SQL.Database(readFileSync(join(ws, 'data.db')));
      assert.deepEqual(db.exec("SELECT count(*) FROM books WHERE title = 'Dune'")[0]?.values, [[1]], 'exactly one Dune, saved to the file');
      db.close();
    } finally {
      await api.stop();
      removeTree(ws);
    }
  });
});
