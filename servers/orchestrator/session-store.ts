import type Anthropic from '@anthropic-ai/sdk';
import { lstat, mkdir, readdir, realpath, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { isInside } from '../../src/common/path-inside';
import { Sandbox } from '../../src/common/sandbox';
import { readSmallFile } from '../../src/common/small-file';
import { ToolError } from '../../src/common/tool-error';
import { JsonlLog } from '../../src/core/transcript/jsonl-log';
import { writeFileAtomic } from '../lib/atomic-write';
import { NO_USAGE } from '../../src/core/usage/token-usage';

export const SESSIONS_FOLDER = '.mcp-agent/sessions';
export const SESSION_NAME = /^[a-zA-Z0-9_-]{1,60}$/;
const MAX_RECORD_BYTES = 256 * 1024;

const count = z.number().int().nonnegative();
/** src/core/usage's TokenUsage: input at full price, output, read from and written to the prompt cache. */
const usageSchema = z.object({ input: count, output: count, cacheRead: count, cacheWrite: count });

export const sessionStatusSchema = z.enum(['running', 'done', 'error', 'interrupted']);
export type SessionStatus = z.infer<typeof sessionStatusSchema>;

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
    throw new ToolError(
      `"${name.slice(0, 80)}" cannot be a session name: use 1 to 60 letters, digits, "_" or "-" (it names a folder under ${SESSIONS_FOLDER}).`,
    );
  }
  if (name === 'list') throw new ToolError('"list" cannot be a session name: sessions://list is the list of sessions. Pick another name.');
  if (DEVICE_NAME.test(name)) throw new ToolError(`"${name}" cannot be a session name: Windows reserves it for a device. Pick another name.`);
}

export function newRecord(name: string, agent: string, model: string, now = new Date()): SessionRecord {
  const at = now.toISOString();
  return { name, agent, model, status: 'running', created: at, lastActivity: at, turns: 0, usage: { ...NO_USAGE }, pid: process.pid };
}

/**
 * Sessions on disk: `.mcp-agent/sessions/<name>/session.json` (replaced atomically) and
 * `messages.jsonl` (appended). Every path is checked twice: the name by its pattern, and the folder
 * by where it really is (a symlinked `.mcp-agent` or session folder leading out is refused).
 */
export class SessionStore {
  private readonly sandbox: Sandbox;
  private readonly writes = new Map<string, Promise<void>>();

  constructor(readonly workspace: string) {
    this.sandbox = new Sandbox(workspace);
  }

  /** Makes the session's folder; refuses a name already taken (mkdir is the atomic test). */
  async create(record: SessionRecord): Promise<void> {
    checkSessionName(record.name);
    const root = await this.sessionsRoot(true);
    try {
      await mkdir(join(root, record.name));
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
    const next = previous.catch(() => undefined).then(async () => {
      const dir = await this.folder(record.name);
      await writeFileAtomic(join(dir, 'session.json'), `${JSON.stringify(record, null, 2)}\n`, undefined, this.sandbox.root);
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
    const file = readSmallFile(join(dir, 'session.json'), MAX_RECORD_BYTES);
    if (file.kind !== 'read') return undefined;
    try {
      const parsed = recordSchema.safeParse(JSON.parse(file.bytes.toString('utf8')));
      return parsed.success && parsed.data.name === name ? parsed.data : undefined;
    } catch {
      return undefined;
    }
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
    if (st && !st.isFile()) throw new ToolError(`${SESSIONS_FOLDER}/${name}/messages.jsonl is not a regular file; nothing was read or written.`);
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

  /** The real sessions folder, checked inside the workspace; created when asked. */
  private async sessionsRoot(create: true): Promise<string>;
  private async sessionsRoot(create: false): Promise<string | undefined>;
  private async sessionsRoot(create: boolean): Promise<string | undefined> {
    if (create) {
      // forWrite creates the missing folders one by one, each checked to be inside the workspace.
      // (".folder" cannot be a session's name, so the probe never meets one.)
      const probe = await this.sandbox.forWrite(`${SESSIONS_FOLDER}/.folder`, true);
      return dirname(probe.real);
    }
    try {
      return (await this.sandbox.existing(SESSIONS_FOLDER)).real;
    } catch (err) {
      if (err instanceof ToolError && /does not exist/.test(err.message)) return undefined;
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
    if (!st.isDirectory()) throw new ToolError(`${SESSIONS_FOLDER}/${name} is not a folder (a symlink or a file); it is not used.`);
    const real = await realpath(path);
    if (!isInside(root, real)) throw new ToolError(`${SESSIONS_FOLDER}/${name} leads outside the workspace; it is not used.`);
    return real;
  }
}
