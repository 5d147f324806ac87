import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { JsonlLog } from '../chat/jsonl-log';
import { chatEventSchema, type ChatEvent } from '../../common/protocol';

type CheckpointEvent = Extract<ChatEvent, { kind: 'checkpoint' }>;

/** One start or resume of a session that changed files, and the checkpoint that undoes it. */
export interface RunCheckpoint {
  session: string;
  kind: 'start' | 'resume';
  /** The start of the task the person gave (shown when they pick a run to undo). */
  prompt: string;
  at: number;
  checkpoint: CheckpointEvent;
}

/** Session names as the orchestrator takes them: the name is a file name here, and the name is a server's answer. */
const SESSION_NAME = /^[A-Za-z0-9_-]{1,60}$/;
const PROMPT_KEPT = 200;

const recordSchema = z.object({
  session: z.string().regex(SESSION_NAME),
  kind: z.enum(['start', 'resume']),
  prompt: z.string().max(PROMPT_KEPT),
  at: z.number(),
  checkpoint: chatEventSchema,
});

function parseRun(value: unknown): RunCheckpoint | undefined {
  const r = recordSchema.safeParse(value);
  if (!r.success) return undefined;
  const { checkpoint, ...run } = r.data;
  return checkpoint.kind === 'checkpoint' ? { ...run, checkpoint } : undefined;
}

/**
 * The checkpoints of the runs a person started outside a chat, a JSONL file per session (private, like the chats), so
 * Restore still finds them after a reload. A chat keeps its own in its events; these have no chat to be kept in.
 */
export class RunCheckpoints {
  constructor(private readonly dir: string) {}

  async add(run: RunCheckpoint): Promise<void> {
    const log = this.log(run.session);
    if (!log) return;
    await log.append({ ...run, prompt: run.prompt.slice(0, PROMPT_KEPT) });
    if (log.lastError) throw log.lastError;
  }

  /** The session's runs that changed files, newest first; none for a name that cannot be a session's. */
  async of(session: string): Promise<RunCheckpoint[]> {
    const records = (await this.log(session)?.load()) ?? [];
    return records.filter((r) => r.session === session).reverse();
  }

  /** The session is gone: so is the way to undo its runs. */
  async forget(session: string): Promise<void> {
    const log = this.log(session);
    if (log) await rm(log.file, { force: true });
  }

  /** Forgets every session but these (after the orchestrator deleted the others). */
  async keepOnly(sessions: ReadonlySet<string>): Promise<void> {
    const files = await readdir(this.dir).catch(() => [] as string[]);
    for (const file of files) {
      const name = file.endsWith('.jsonl') ? file.slice(0, -'.jsonl'.length) : undefined;
      if (name !== undefined && !sessions.has(name)) await this.forget(name);
    }
  }

  private log(session: string): JsonlLog<RunCheckpoint> | undefined {
    if (!SESSION_NAME.test(session)) return undefined;
    return new JsonlLog(join(this.dir, `${session}.jsonl`), parseRun);
  }
}
