import { randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { lstat, mkdir, open, readFile, rmdir, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { processAlive } from '../../node/process-alive';
import { PRIVATE_FILE, PRIVATE_FOLDER } from './jsonl-log';

/** Who writes a chat: written into its lock file, and named to a second front end that finds it. */
export interface ChatWriter {
  pid: number;
  host: string;
  /** The front end, in words: "VS Code", "the CLI". */
  by: string;
  since: string;
  /** Tells this holding from another of the same process, so a release never removes another's lock. */
  nonce: string;
}

/** `tookOver`: the lock of a writer that ended without letting go (killed, crashed), now this one's. */
export type Claim = { ok: true; tookOver?: ChatWriter } | { ok: false; holder: ChatWriter };

const LOCK = 'writer.lock';
/** A lock file whose writer cannot be read (being written, or garbage) counts as abandoned after this long. */
const UNREADABLE_ABANDONED_MS = 10_000;

/** The chats this process writes: the sessions of one process on one chat share its lock. */
const heldHere = new Map<string, { writer: ChatWriter; count: number }>();

/**
 * One writer per chat at a time: an exclusive lock file in the chat's folder (`writer.lock`, created with
 * O_EXCL; Node has no flock()) naming the process that writes it. A lock whose process no longer runs on this
 * machine is abandoned and taken over; one of another machine (a shared folder) is never taken, as only the
 * person can tell it is dead.
 */
export class ChatLock {
  private mine = false;

  constructor(
    private readonly dir: string,
    private readonly by: string,
  ) {}

  get held(): boolean {
    return this.mine;
  }

  /** Makes this session the chat's writer, unless another live process is. Claiming again while held is a no-op. */
  async claim(): Promise<Claim> {
    if (this.mine) return { ok: true };
    const here = heldHere.get(this.dir);
    if (here) {
      here.count++;
      this.mine = true;
      return { ok: true };
    }
    const writer: ChatWriter = { pid: process.pid, host: hostname(), by: this.by, since: new Date().toISOString(), nonce: randomBytes(8).toString('hex') };
    let tookOver: ChatWriter | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      if (await this.tryCreate(writer)) {
        heldHere.set(this.dir, { writer, count: 1 });
        this.mine = true;
        return tookOver ? { ok: true, tookOver } : { ok: true };
      }
      const found = await this.read();
      if (found === 'gone') continue;
      if (!abandoned(found)) return { ok: false, holder: found.writer ?? unknownWriter(found.mtimeMs) };
      tookOver = found.writer;
      await unlink(this.file).catch(ignoreMissing);
    }
    throw new Error(`the lock of the chat in ${this.dir} keeps changing hands`);
  }

  /** Lets go of the chat (after its last write); a chat folder left empty (a chat never written) goes too. */
  async release(): Promise<void> {
    const writer = this.letGo();
    if (!writer) return;
    const found = await this.read().catch(() => 'gone' as const);
    if (found !== 'gone' && found.writer?.nonce === writer.nonce) await unlink(this.file).catch(ignoreMissing);
    await rmdir(this.dir).catch(() => undefined);
  }

  /** release() for a process about to exit, which cannot wait. */
  releaseSync(): void {
    if (!this.letGo()) return;
    try {
      unlinkSync(this.file);
    } catch {
      // gone already, or no longer ours to remove
    }
  }

  /** Stops holding; the writer whose file is to be removed, once no session of this process holds the chat. */
  private letGo(): ChatWriter | undefined {
    if (!this.mine) return undefined;
    this.mine = false;
    const here = heldHere.get(this.dir);
    if (!here || --here.count > 0) return undefined;
    heldHere.delete(this.dir);
    return here.writer;
  }

  private get file(): string {
    return join(this.dir, LOCK);
  }

  private async tryCreate(writer: ChatWriter): Promise<boolean> {
    await mkdir(this.dir, { recursive: true, mode: PRIVATE_FOLDER });
    let handle;
    try {
      handle = await open(this.file, 'wx', PRIVATE_FILE);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    }
    try {
      await handle.writeFile(JSON.stringify(writer));
    } catch (err) {
      // A lock nobody can read is no lock: without it the chat is written as before, unguarded.
      await handle.close();
      await unlink(this.file).catch(() => undefined);
      throw err;
    }
    await handle.close();
    return true;
  }

  private async read(): Promise<{ writer: ChatWriter | undefined; mtimeMs: number } | 'gone'> {
    try {
      const [text, st] = await Promise.all([readFile(this.file, 'utf8'), lstat(this.file)]);
      return { writer: parseWriter(text), mtimeMs: st.mtimeMs };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
      throw err;
    }
  }
}

/** "the CLI (process 4242, since 02:31)", with the machine when it is another one. */
export function describeWriter(w: ChatWriter): string {
  const since = /T(\d\d:\d\d)/.exec(w.since)?.[1];
  const where = w.host !== hostname() ? ` on ${w.host}` : '';
  return `${w.by} (process ${w.pid}${where}${since ? `, since ${since} UTC` : ''})`;
}

function parseWriter(text: string): ChatWriter | undefined {
  try {
    const w = JSON.parse(text) as Partial<ChatWriter>;
    if (typeof w.pid === 'number' && typeof w.host === 'string')
      return { pid: w.pid, host: w.host, by: String(w.by ?? 'another MCP Agent'), since: String(w.since ?? ''), nonce: String(w.nonce ?? '') };
  } catch {
    // being written, or not ours
  }
  return undefined;
}

function unknownWriter(mtimeMs: number): ChatWriter {
  return { pid: 0, host: hostname(), by: 'another MCP Agent', since: new Date(mtimeMs).toISOString(), nonce: '' };
}

/**
 * A writer on this machine that no longer runs has abandoned the lock; so has this very process when no session
 * of it holds the chat (a pid reused after a crash).
 */
function abandoned({ writer, mtimeMs }: { writer: ChatWriter | undefined; mtimeMs: number }): boolean {
  if (!writer) return Date.now() - mtimeMs > UNREADABLE_ABANDONED_MS;
  if (writer.host !== hostname()) return false;
  return writer.pid === process.pid || !processAlive(writer.pid);
}

function ignoreMissing(err: NodeJS.ErrnoException): void {
  if (err.code !== 'ENOENT') throw err;
}
