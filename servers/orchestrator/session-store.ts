import type Anthropic from '@anthropic-ai/sdk';
import { constants } from 'node:fs';
import { chmod, copyFile, lstat, mkdir, mkdtemp, readdir, realpath, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { isInside } from '../../src/node/path-inside';
import { readSmallFile } from '../../src/node/small-file';
import { ToolError } from '../../src/node/tool-error';
import { JsonlLog, PRIVATE_FILE, PRIVATE_FOLDER } from '../../src/core/chat/jsonl-log';
import { writeFileAtomic } from '../lib/atomic-write';
import { NO_USAGE } from '../../src/core/usage/token-usage';

export const SESSION_NAME = /^[a-zA-Z0-9_-]{1,60}$/;
const MAX_RECORD_BYTES = 256 * 1024;

const count = z.number().int().nonnegative();
/** src/core/usage's TokenUsage: input at full price, output, read from and written to the prompt cache. */
const usageSchema = z.object({ input: count, output: count, cacheRead: count, cacheWrite: count });

const sessionStatusSchema = z.enum(['running', 'done', 'error', 'interrupted']);

const recordSchema = z.object({
  name: z.string().regex(SESSION_NAME),
  agent: z.string(),
  model: z.string(),
  status: sessionStatusSchema,
  /** What the status means beyond its word: an error's message, "cancelled", a limit reached. */
  detail: z.string().optional(),
  created: z.string(),
  lastActivity: z.string(),
  turns: z.number().int().nonnegative(),
  usage: usageSchema,
  /** The process running a turn (status `running`), so another start can tell a live run from a dead one. */
  pid: z.number().int().optional(),
  /** The system prompt the session began with (src/core/agent's FrozenSystem). */
  system: z.object({ text: z.string(), tools: z.array(z.string()) }).optional(),
});
export type SessionRecord = z.infer<typeof recordSchema>;

const messageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(z.record(z.string(), z.unknown()))]),
});

/** Names Windows keeps for devices: a folder so named cannot be made there, and workspaces travel. */
const DEVICE_NAME = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

export function checkSessionName(name: string): void {
  if (!SESSION_NAME.test(name)) {
    throw new ToolError(`"${name.slice(0, 80)}" cannot be a session name: use 1 to 60 letters, digits, "_" or "-" (it names the session's folder).`);
  }
  if (name === 'list') throw new ToolError('"list" cannot be a session name: sessions://list is the list of sessions. Pick another name.');
  if (DEVICE_NAME.test(name)) throw new ToolError(`"${name}" cannot be a session name: Windows reserves it for a device. Pick another name.`);
}

export function newRecord(name: string, agent: string, model: string, now = new Date()): SessionRecord {
  const at = now.toISOString();
  return { name, agent, model, status: 'running', created: at, lastActivity: at, turns: 0, usage: { ...NO_USAGE }, pid: process.pid };
}

/** A session's record from its file, or undefined when it is missing, unreadable or not `name`'s. */
export function readRecord(file: string, name: string): SessionRecord | undefined {
  const read = readSmallFile(file, MAX_RECORD_BYTES);
  if (read.kind !== 'read') return undefined;
  try {
    const parsed = recordSchema.safeParse(JSON.parse(read.bytes.toString('utf8')));
    return parsed.success && parsed.data.name === name ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sessions on disk in `dir` (chat-home's sessionsDir: beside the person's chats, never in the workspace):
 * `<name>/session.json` (replaced atomically) and `messages.jsonl` (appended), private files in
 * private folders, as a transcript holds whatever the sub-agent read. Every path is checked twice:
 * the name by its pattern, and the folder by where it really is (a session folder that is a symlink,
 * or leads out of `dir`, is refused).
 */
export class SessionStore {
  private readonly writes = new Map<string, Promise<void>>();

  constructor(readonly dir: string) {}

  /** Makes the session's folder; refuses a name already taken (mkdir is the atomic test). */
  async create(record: SessionRecord): Promise<void> {
    checkSessionName(record.name);
    const root = await this.sessionsRoot(true);
    try {
      await mkdir(join(root, record.name), { mode: PRIVATE_FOLDER });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new ToolError(`A session named "${record.name}" exists already. Resume it with resume_agent, or pick another name.`);
      }
      throw err;
    }
    await this.write(record);
  }

  /** Replaces session.json; writes of one session land in the order they were asked for. */
  write(record: SessionRecord): Promise<void> {
    const previous = this.writes.get(record.name) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const dir = await this.folder(record.name);
        await writeFileAtomic(join(dir, 'session.json'), recordText(record), PRIVATE_FILE, await realpath(this.dir));
      });
    this.writes.set(record.name, next);
    return next;
  }

  /** The record, or undefined when there is no such session (or its record is unreadable). */
  async read(name: string): Promise<SessionRecord | undefined> {
    checkSessionName(name);
    let dir: string;
    try {
      dir = await this.folder(name);
    } catch (err) {
      if (err instanceof ToolError && /does not exist|no session/.test(err.message)) return undefined;
      throw err;
    }
    return readRecord(join(dir, 'session.json'), name);
  }

  /** Every readable session, newest activity first. */
  async list(): Promise<SessionRecord[]> {
    const root = await this.sessionsRoot(false);
    if (!root) return [];
    const names = (await readdir(root)).filter((n) => SESSION_NAME.test(n));
    const records = await Promise.all(names.map((n) => this.read(n).catch(() => undefined)));
    return records.filter((r): r is SessionRecord => r !== undefined).sort((a, b) => b.lastActivity.localeCompare(a.lastActivity));
  }

  /** The session's messages log (append-only). */
  async log(name: string): Promise<JsonlLog<Anthropic.MessageParam>> {
    const dir = await this.folder(name);
    const file = join(dir, 'messages.jsonl');
    const st = await lstat(file).catch(() => undefined);
    if (st && !st.isFile()) throw new ToolError(`The messages of session "${name}" are not a regular file; nothing was read or written.`);
    return new JsonlLog(file, (v) => {
      const parsed = messageSchema.safeParse(v);
      return parsed.success ? (parsed.data as Anthropic.MessageParam) : undefined;
    });
  }

  /** Deletes the session's folder (a symlink in its place is removed, never followed). */
  async remove(name: string): Promise<void> {
    checkSessionName(name);
    const root = await this.sessionsRoot(false);
    if (!root) return;
    const path = join(root, name);
    if (!isInside(root, path) || path === root) throw new ToolError(`"${name}" is not a session folder.`);
    await this.writes.get(name)?.catch(() => undefined);
    await rm(path, { recursive: true, force: true });
  }

  /**
   * Takes in a session kept elsewhere (legacy-sessions.ts): its record and messages are copied into a
   * hidden folder, which is then renamed into place, so the session appears whole or not at all.
   * False when the name is taken meanwhile.
   */
  async adopt(record: SessionRecord, messages: string | undefined): Promise<boolean> {
    checkSessionName(record.name);
    const root = await this.sessionsRoot(true);
    // A leading dot never matches SESSION_NAME: list() passes over a copy cut short.
    const temp = await mkdtemp(join(root, `.${record.name}-`));
    try {
      if (messages) {
        await copyFile(messages, join(temp, 'messages.jsonl'), constants.COPYFILE_EXCL);
        await chmod(join(temp, 'messages.jsonl'), PRIVATE_FILE);
      }
      await writeFileAtomic(join(temp, 'session.json'), recordText(record), PRIVATE_FILE, root);
      if (await lstat(join(root, record.name)).catch(() => undefined)) return false;
      await rename(temp, join(root, record.name));
      return true;
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  }

  /** The real sessions folder; created (private) when asked. */
  private async sessionsRoot(create: true): Promise<string>;
  private async sessionsRoot(create: false): Promise<string | undefined>;
  private async sessionsRoot(create: boolean): Promise<string | undefined> {
    if (create) await mkdir(this.dir, { recursive: true, mode: PRIVATE_FOLDER });
    try {
      return await realpath(this.dir);
    } catch (err) {
      if (!create && (err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /** The real folder of an existing session, checked to be a folder directly in the sessions folder. */
  private async folder(name: string): Promise<string> {
    checkSessionName(name);
    const root = await this.sessionsRoot(false);
    if (!root) throw new ToolError(`There is no session named "${name}".`);
    const path = join(root, name);
    const st = await lstat(path).catch(() => undefined);
    if (!st) throw new ToolError(`There is no session named "${name}".`);
    if (!st.isDirectory()) throw new ToolError(`The folder of session "${name}" is not a folder (a symlink or a file); it is not used.`);
    const real = await realpath(path);
    if (!isInside(root, real)) throw new ToolError(`The folder of session "${name}" leads outside ${this.dir}; it is not used.`);
    return real;
  }
}

function recordText(record: SessionRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}
