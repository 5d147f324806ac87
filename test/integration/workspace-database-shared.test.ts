// One database, many clients: the sessions of one server over --http, and several server processes
// on one folder (the extension's, the CLI's, an orchestrator's sub-agents). No acknowledged write may
// be lost, each sees the others' writes, and a change another program makes is never saved over.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startBundledHttp, type HttpServerProcess } from './helpers/http-server-process';
import { removeTree, startWorkspace, tempWorkspace, textOf, type Running } from './workspace-harness';
import { scaled } from '../support/until';

const T = { timeout: scaled(120_000) };
const dirs: string[] = [];
const closers: Array<() => Promise<unknown>> = [];
after(async () => {
  await Promise.all(closers.map((close) => close().catch(() => undefined)));
  for (const d of dirs) removeTree(d);
});

/** A folder whose data.db holds an empty table t, made by another program before any server starts. */
function workspace(): string {
  const d = tempWorkspace('ws-db-shared-');
  dirs.push(d);
  pyWrite(d, 'CREATE TABLE t (x)');
  return d;
}

/** The database file as another program reads it right now: Python's own sqlite3. */
function onDisk(ws: string, sql: string): string {
  const r = spawnSync(
    'python3',
    ['-c', 'import sqlite3, sys\nprint(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])', join(ws, 'data.db'), sql],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

function pyWrite(ws: string, sql: string): void {
  const r = spawnSync(
    'python3',
    ['-c', 'import sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\ndb.execute(sys.argv[2])\ndb.commit()', join(ws, 'data.db'), sql],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
}

type Sql = (sql: string, params?: unknown[]) => Promise<{ text: string; isError: boolean }>;

function sqlOn(call: (args: Record<string, unknown>) => Promise<CallToolResult>): Sql {
  return async (sql, params) => {
    const r = await call({ sql, ...(params ? { params } : {}) });
    return { text: textOf(r), isError: r.isError === true };
  };
}

const stdioSql = (w: Running): Sql => sqlOn((args) => w.call('query_database', args));

async function httpSession(server: HttpServerProcess): Promise<Sql> {
  const client = new Client({ name: 'db-shared', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  closers.push(() => client.close());
  return sqlOn(async (args) => (await client.callTool({ name: 'query_database', arguments: args })) as CallToolResult);
}

async function started(ws: string, env: Record<string, string> = {}): Promise<Running> {
  const w = await startWorkspace(ws, env);
  closers.push(() => w.close());
  return w;
}

const count = async (sql: Sql): Promise<number> => Number(/"n":(\d+)/.exec((await sql('SELECT count(*) AS n FROM t')).text)?.[1]);

async function ok(sql: Sql, statement: string, params?: unknown[]): Promise<void> {
  const r = await sql(statement, params);
  assert.equal(r.isError, false, r.text);
}

/** An endless write (count(*) over a CTE that never ends), until its time limit or a cancel; heartbeats each second. */
const ENDLESS_WRITE = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) INSERT INTO t SELECT count(*) FROM c';

test('two sessions of one server over --http: every acknowledged INSERT is on disk when acknowledged', T, async () => {
  const ws = workspace();
  const server = await startBundledHttp('workspace', ws);
  closers.push(() => server.stop());
  const [a, b] = [await httpSession(server), await httpSession(server)];
  for (let i = 0; i < 10; i++) {
    await ok(a, 'INSERT INTO t VALUES (?)', [`a${i}`]);
    await ok(b, 'INSERT INTO t VALUES (?)', [`b${i}`]);
  }
  assert.equal(await count(a), 20);
  assert.equal(await count(b), 20);
  // Read by another program while the server still runs: nothing waits for a later save.
  assert.equal(onDisk(ws, 'SELECT count(*) FROM t'), '20');
});

test("two server processes on one folder see each other's writes at once and lose none, one after another or at once", T, async () => {
  const ws = workspace();
  const [a, b] = (await Promise.all([started(ws), started(ws)])).map(stdioSql) as [Sql, Sql];
  for (let i = 0; i < 5; i++) {
    await ok(a, 'INSERT INTO t VALUES (?)', [`a${i}`]);
    assert.equal(await count(b), 2 * i + 1);
    await ok(b, 'INSERT INTO t VALUES (?)', [`b${i}`]);
    assert.equal(await count(a), 2 * i + 2);
  }
  await Promise.all(
    [a, b].map(async (sql, k) => {
      for (let i = 0; i < 10; i++) await ok(sql, 'INSERT INTO t VALUES (?)', [`${k}-${i}`]);
    }),
  );
  assert.equal(onDisk(ws, 'SELECT count(*) FROM t'), '30');
  assert.equal(await count(a), 30);
  assert.equal(await count(b), 30);
});

test('a change another program makes while a statement runs is never saved over', T, async (t) => {
  const ws = workspace();
  const w = await started(ws, { MCP_AGENT_SQL_TIMEOUT_MS: '600000' });
  let running!: () => void;
  const isRunning = new Promise<void>((resolve) => (running = resolve));
  // Ten million steps, several seconds: still running when Python writes, a second after it started (its first heartbeat).
  const long = w.call(
    'query_database',
    { sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 10000000) INSERT INTO t SELECT count(*) FROM c' },
    { onprogress: () => running() },
  );
  await isRunning;
  pyWrite(ws, "INSERT INTO t VALUES ('python')");
  const r = await long;
  await w.close(); // whatever the server still meant to save, it has saved
  assert.equal(onDisk(ws, "SELECT count(*) FROM t WHERE x = 'python'"), '1', "the other program's row was lost");
  t.diagnostic(r.isError ? 'the statement failed: Python wrote while it ran' : 'the statement finished before Python wrote');
  if (r.isError) {
    assert.match(textOf(r), /"data\.db" was changed by another program while this statement ran, so its result was not saved/);
    assert.equal(onDisk(ws, 'SELECT count(*) FROM t'), '1');
  } else {
    // It finished before Python wrote: then both rows are there.
    assert.equal(onDisk(ws, 'SELECT count(*) FROM t'), '2');
  }
});

test("a write waits for another process's write, fails clearly when that one does not end, and goes on once it does", T, async () => {
  const ws = workspace();
  const holder = await started(ws, { MCP_AGENT_SQL_TIMEOUT_MS: '600000' });
  const waiter = await started(ws, { MCP_AGENT_SQL_TIMEOUT_MS: '1000' });
  const abort = new AbortController();
  let running!: () => void;
  const isRunning = new Promise<void>((resolve) => (running = resolve));
  const endless = holder.call('query_database', { sql: ENDLESS_WRITE }, { signal: abort.signal, onprogress: () => running() });
  await isRunning;
  const waiting = stdioSql(waiter);
  // A read needs no turn: it reads the last saved version.
  assert.equal(await count(waiting), 0);
  const refused = await waiting('INSERT INTO t VALUES (?)', ['waiter']);
  assert.equal(refused.isError, true, refused.text);
  assert.match(
    refused.text,
    new RegExp(`"data\\.db" is being changed by another MCP Agent process \\(process ${holder.transport.pid}, since .*nothing was run`),
  );
  assert.match(refused.text, /delete data\.db\.mcp-agent\.lock beside the database/);
  abort.abort();
  await assert.rejects(endless, /abort/i);
  await ok(waiting, 'INSERT INTO t VALUES (?)', ['waiter']);
  assert.equal(onDisk(ws, 'SELECT group_concat(x) FROM t'), 'waiter');
});

test('a server killed in the middle of a write leaves its lock behind; the next write takes it over', T, async () => {
  const ws = workspace();
  const victim = await startWorkspace(ws, { MCP_AGENT_SQL_TIMEOUT_MS: '600000' });
  let running!: () => void;
  const isRunning = new Promise<void>((resolve) => (running = resolve));
  void victim.call('query_database', { sql: ENDLESS_WRITE }, { onprogress: () => running() }).catch(() => undefined);
  await isRunning;
  const exited = new Promise<void>((resolve) => (victim.client.onclose = resolve));
  process.kill(victim.transport.pid as number, 'SIGKILL');
  await exited;
  assert.ok(existsSync(join(ws, 'data.db.mcp-agent.lock')), 'the killed server held the lock');
  const next = stdioSql(await started(ws, { MCP_AGENT_SQL_TIMEOUT_MS: '1000' }));
  await ok(next, 'INSERT INTO t VALUES (?)', ['after']);
  assert.equal(onDisk(ws, 'SELECT group_concat(x) FROM t'), 'after');
  assert.equal(existsSync(join(ws, 'data.db.mcp-agent.lock')), false);
});
