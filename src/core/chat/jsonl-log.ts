import { appendFile, chmod, mkdir, open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';

/** A conversation holds whatever was read in it (a `.env`, a key): its owner's alone, like the sign-ins. */
export const PRIVATE_FILE = 0o600;
export const PRIVATE_FOLDER = 0o700;

/** A line of a log that could not be read as a record: where it was, and its text as it stood. */
export interface UnreadableLine {
  /** 1-based, as an editor shows it. */
  line: number;
  text: string;
}

/**
 * An append-only JSONL file, readable by its owner only (0600 in folders it makes 0700). Appends are
 * queued so they land in order. A write that fails (a full disk) leaves the file as it was before it, never
 * a part of a line; the log is then behind what it was given, and appends are dropped until a replace() of
 * the whole list succeeds, so the file always holds a true beginning of the record, never one with a gap.
 * A line that cannot be read (torn by a crash, changed by hand) is reported by loadChecked().
 */
export class JsonlLog<T> {
  private queue: Promise<void> = Promise.resolve();
  private failed: Error | undefined;
  private tailChecked = false;

  constructor(
    readonly file: string,
    private readonly parse: (value: unknown) => T | undefined,
    /** Told of each write that fails, at once (the owner may leave a note that outlives the process). */
    private readonly onFail?: (err: Error) => void,
  ) {}

  append(record: T): Promise<void> {
    const line = `${JSON.stringify(record)}\n`;
    this.queue = this.queue.then(async () => {
      if (this.failed) return;
      try {
        await mkdir(dirname(this.file), { recursive: true, mode: PRIVATE_FOLDER });
        const first = !this.tailChecked;
        const lead = !first || (await endsWithNewline(this.file)) ? '' : '\n';
        await appendWhole(this.file, lead + line);
        // A file kept by a version that wrote it readable by all is made private when next written
        // (not being able to is no reason to lose the record).
        if (first) await chmod(this.file, PRIVATE_FILE).catch(() => undefined);
        this.tailChecked = true;
      } catch (err) {
        this.fail(err);
      }
    });
    return this.queue;
  }

  /**
   * Replaces the whole file with `records` (after the appends before it): written to a temporary
   * file and renamed over the old one, so a crash leaves the old log or the new one, never a mix,
   * and a failure leaves no temporary file behind. Once it succeeds, the log is whole again.
   */
  replace(records: readonly T[]): Promise<void> {
    const text = records.map((r) => `${JSON.stringify(r)}\n`).join('');
    this.queue = this.queue.then(async () => {
      try {
        await writeWhole(this.file, text);
        this.tailChecked = true;
        this.failed = undefined;
      } catch (err) {
        this.fail(err);
      }
    });
    return this.queue;
  }

  /** Why the log is behind what it was given (the last write that failed), so the caller can tell the person and write it whole again. */
  get lastError(): Error | undefined {
    return this.failed;
  }

  flush(): Promise<void> {
    return this.queue;
  }

  /** The records; lines that cannot be read are skipped (loadChecked() says which). */
  async load(): Promise<T[]> {
    return (await this.loadChecked()).records;
  }

  /** The records, and every line that could not be read as one. */
  async loadChecked(): Promise<{ records: T[]; unreadable: UnreadableLine[] }> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], unreadable: [] };
      throw err;
    }
    const records: T[] = [];
    const unreadable: UnreadableLine[] = [];
    text.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      let record: T | undefined;
      try {
        record = this.parse(JSON.parse(line));
      } catch {
        record = undefined;
      }
      if (record !== undefined) records.push(record);
      else unreadable.push({ line: i + 1, text: line });
    });
    return { records, unreadable };
  }

  private fail(err: unknown): void {
    this.failed = err instanceof Error ? err : new Error(String(err));
    this.onFail?.(this.failed);
    // What is at the end of the file is no longer known: the next write checks again.
    this.tailChecked = false;
  }
}

/** Appends `text` in one write; if that fails part way (a full disk), the file is cut back to where it was. */
async function appendWhole(file: string, text: string): Promise<void> {
  const handle = await open(file, 'a', PRIVATE_FILE);
  try {
    const { size } = await handle.stat();
    try {
      await appendFile(handle, text, 'utf8');
    } catch (err) {
      await handle.truncate(size).catch(() => undefined);
      throw err;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Writes `file` whole through a temporary file beside it, renamed over it: a crash leaves the old or the new,
 * never half, and a failure removes the temporary file (a full disk would otherwise collect empty ones).
 */
export async function writeWhole(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: PRIVATE_FOLDER });
  const temp = `${file}.${process.pid}.${randomBytes(3).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, { encoding: 'utf8', mode: PRIVATE_FILE });
    await rename(temp, file);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}

/** True for a missing or empty file too: only a non-empty file without a final newline needs one. */
async function endsWithNewline(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await handle.close();
  }
}
