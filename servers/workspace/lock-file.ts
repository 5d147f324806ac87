import { constants } from 'node:fs';
import { lstat, open, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename } from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ToolError } from '../lib/results';
import { openFolderOf } from '../lib/checked-folder';
import { processAlive } from '../../src/node/process-alive';

/** What a lock file says about who holds it. */
interface Holder {
  pid: number;
  host: string;
  since: string;
  /** Tells this holding from an earlier one of the same process, so a release never removes another's lock. */
  nonce: string;
}

/** A lock file whose holder cannot be read (still being written, or garbage) counts as abandoned after this long. */
const UNREADABLE_ABANDONED_MS = 10_000;
const FIRST_POLL_MS = 5;
const MAX_POLL_MS = 100;
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

function lockNameFor(target: string): string {
  return `${basename(target)}.mcp-agent.lock`;
}

export interface LockOptions {
  /** The workspace: the lock file is created through its checked folder, never outside it. */
  root: string;
  /** The file's name as the person knows it, for messages. */
  shownAs: string;
  /** How long to wait for another holder before giving up with a clear error. */
  waitMs: number;
  signal: AbortSignal;
}

/**
 * Holds `<file>.mcp-agent.lock` beside `target` while `work` runs. Every MCP Agent process on a
 * folder (the extension's workspace server, the CLI's, an orchestrator's sub-agents, a server over
 * HTTP) takes it around a read-modify-write of the file, so none saves over a change it has not
 * seen. Node has no flock(), so the lock is a file created with O_EXCL; a lock left by a process that
 * died (on this machine, no such process any more) is removed and taken.
 */
export async function withLockFile<T>(target: string, opts: LockOptions, work: () => Promise<T>): Promise<T> {
  const folder = await openFolderOf(target, opts.root);
  try {
    const lock = folder.at(lockNameFor(target));
    const mine = await acquire(lock, target, opts);
    try {
      return await work();
    } finally {
      await release(lock, mine);
    }
  } finally {
    await folder.close();
  }
}

async function acquire(lock: string, target: string, opts: LockOptions): Promise<Holder> {
  const mine: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), nonce: randomBytes(8).toString('hex') };
  const started = Date.now();
  let poll = FIRST_POLL_MS;
  for (;;) {
    if (await tryCreate(lock, mine)) return mine;
    const found = await readHolder(lock);
    if (found === 'gone') continue;
    if (abandoned(found)) {
      await unlink(lock).catch(ignoreMissing);
      continue;
    }
    if (Date.now() - started >= opts.waitMs) throw new ToolError(busyMessage(target, opts, found.holder, Date.now() - started));
    await sleep(poll, undefined, { signal: opts.signal });
    poll = Math.min(poll * 2, MAX_POLL_MS);
  }
}

async function tryCreate(lock: string, mine: Holder): Promise<boolean> {
  let handle;
  try {
    handle = await open(lock, 'wx', 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await handle.writeFile(JSON.stringify(mine));
  } finally {
    await handle.close();
  }
  return true;
}

type Found = { holder: Holder | undefined; mtimeMs: number } | 'gone';

async function readHolder(lock: string): Promise<Found> {
  let handle;
  try {
    handle = await open(lock, READ_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'gone';
    if (code !== 'ELOOP') throw err;
    // A symlink under the lock's name: nobody's lock; it is removed (the link, never what it points to) once old.
    const st = await lstat(lock).catch(() => undefined);
    return { holder: undefined, mtimeMs: st?.mtimeMs ?? 0 };
  }
  try {
    const [text, st] = await Promise.all([handle.readFile('utf8'), handle.stat()]);
    return { holder: parseHolder(text), mtimeMs: st.mtimeMs };
  } finally {
    await handle.close();
  }
}

function parseHolder(text: string): Holder | undefined {
  try {
    const h = JSON.parse(text) as Partial<Holder>;
    if (typeof h.pid === 'number' && typeof h.host === 'string')
      return { pid: h.pid, host: h.host, since: String(h.since ?? ''), nonce: String(h.nonce ?? '') };
  } catch {
    // being written, or not ours
  }
  return undefined;
}

/**
 * A holder on this machine that no longer runs has abandoned the lock (a crash, SIGKILL); so has
 * this very process, which holds no lock between statements (a pid reused after a crash). A lock
 * from another machine (a shared folder) is never taken over: only the person can tell it is dead.
 */
function abandoned(found: Exclude<Found, 'gone'>): boolean {
  const { holder } = found;
  if (!holder) return Date.now() - found.mtimeMs > UNREADABLE_ABANDONED_MS;
  if (holder.host !== hostname()) return false;
  return holder.pid === process.pid || !processAlive(holder.pid);
}

async function release(lock: string, mine: Holder): Promise<void> {
  const found = await readHolder(lock).catch(() => 'gone' as const);
  // Someone took an abandoned-looking lock from under us: theirs now, not ours to remove.
  if (found === 'gone' || found.holder?.nonce !== mine.nonce) return;
  await unlink(lock).catch(ignoreMissing);
}

function busyMessage(target: string, opts: LockOptions, holder: Holder | undefined, waitedMs: number): string {
  const who = holder
    ? `process ${holder.pid}${holder.host !== hostname() ? ` on ${holder.host}` : ''}${holder.since ? `, since ${holder.since}` : ''}`
    : 'a process that did not say which';
  return (
    `"${opts.shownAs}" is being changed by another MCP Agent process (${who}); waited ${Math.round(waitedMs / 1000)} s for it, ` +
    `and nothing was run. Try again; if that process no longer runs, delete ${lockNameFor(target)} beside the database.`
  );
}

function ignoreMissing(err: NodeJS.ErrnoException): void {
  if (err.code !== 'ENOENT') throw err;
}
