import { lstat, readdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Sandbox } from '../../src/node/sandbox';
import { isAlive } from './session-recovery';
import { readRecord, SESSION_NAME, type SessionStore } from './session-store';

/** Where earlier versions kept sessions: in the workspace, where `git add` picked the transcripts up. */
const LEGACY_SESSIONS_FOLDER = '.mcp-agent/sessions';

/**
 * Moves the sessions earlier versions kept in the workspace into the store, at start, so upgrading
 * loses none and the work tree keeps no transcript. Each is copied before its folder is removed: a
 * failure leaves it where it was, to be tried again at the next start. Left where they are, and said
 * on stderr: a session an older orchestrator is running now (moved at a later start), one whose name
 * the store has already, and anything that is not a session folder (symlinks are never followed).
 */
export async function moveWorkspaceSessions(workspace: string, store: SessionStore, log: (line: string) => void): Promise<void> {
  const root = await legacyRoot(workspace, log);
  if (!root) return;
  const moved: string[] = [];
  for (const name of (await readdir(root).catch(() => [])).filter((n) => SESSION_NAME.test(n)).sort()) {
    try {
      if (await moveOne(root, name, store, log)) moved.push(name);
    } catch (err) {
      log(`orchestrator: session ${name} stays in ${LEGACY_SESSIONS_FOLDER}/${name}: ${(err as Error).message}`);
    }
  }
  if (moved.length > 0)
    log(`orchestrator: moved ${moved.length} session(s) from ${LEGACY_SESSIONS_FOLDER} in the workspace to ${store.dir}: ${moved.join(', ')}`);
  // Only once it is empty: what was left behind stays in sight.
  await rmdir(root).catch(() => undefined);
}

/** The workspace's old sessions folder, when there is one inside the workspace. */
async function legacyRoot(workspace: string, log: (line: string) => void): Promise<string | undefined> {
  try {
    return (await new Sandbox(workspace).existing(LEGACY_SESSIONS_FOLDER)).real;
  } catch (err) {
    if (!/does not exist/.test((err as Error).message)) log(`orchestrator: ${LEGACY_SESSIONS_FOLDER} is not read: ${(err as Error).message}`);
    return undefined;
  }
}

async function moveOne(root: string, name: string, store: SessionStore, log: (line: string) => void): Promise<boolean> {
  const dir = join(root, name);
  if (!(await lstat(dir)).isDirectory()) return false;
  const record = (await isRegularFile(join(dir, 'session.json'))) ? readRecord(join(dir, 'session.json'), name) : undefined;
  // Not a session: the store never listed it either.
  if (!record) return false;
  if (record.status === 'running' && record.pid !== undefined && record.pid !== process.pid && isAlive(record.pid)) {
    log(`orchestrator: session ${name} is running in another orchestrator (pid ${record.pid}); it moves at a later start`);
    return false;
  }
  const kept = await store.read(name);
  if (kept?.created === record.created) {
    // Moved at an earlier start that stopped before removing the old folder.
    await rm(dir, { recursive: true, force: true });
    return false;
  }
  const messages = join(dir, 'messages.jsonl');
  const adopted = !kept && (await store.adopt(record, (await isRegularFile(messages)) ? messages : undefined));
  if (!adopted) {
    log(`orchestrator: a session named ${name} exists already in ${store.dir}; the workspace's stays in ${LEGACY_SESSIONS_FOLDER}/${name}`);
    return false;
  }
  await rm(dir, { recursive: true, force: true });
  return true;
}

async function isRegularFile(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined))?.isFile() ?? false;
}
