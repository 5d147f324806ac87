import { appendFile, chmod, mkdir, open, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A conversation holds whatever was read in it (a `.env`, a key): its owner's alone, like the sign-ins. */
export const PRIVATE_FILE = 0o600;
export const PRIVATE_FOLDER = 0o700;

/**
 * An append-only JSONL file, readable by its owner only (0600 in folders it makes 0700). Appends are
 * queued so they land in order; a torn last line (the window closed mid-write) or a line that fails
 * validation is skipped on load, never fatal, and the first append after one starts on a new line so
 * it is not glued onto the fragment.
 */
export class JsonlLog<T> {
  private queue: Promise<void> = Promise.resolve();
  private failed: Error | undefined;
  private tailChecked = false;

  constructor(
    readonly file: string,
    private readonly parse: (value: unknown) => T | undefined,
  ) {}

  append(record: T): Promise<void> {
    const line = `${JSON.stringify(record)}\n`;
    this.queue = this.queue.then(async () => {
      try {
        await mkdir(dirname(this.file), { recursive: true, mode: PRIVATE_FOLDER });
        const first = !this.tailChecked;
        const lead = !first || (await endsWithNewline(this.file)) ? '' : '\n';
        await appendFile(this.file, lead + line, { encoding: 'utf8', mode: PRIVATE_FILE });
        // A file kept by a version that wrote it readable by all is made private when next written
        // (not being able to is no reason to lose the record).
        if (first) await chmod(this.file, PRIVATE_FILE).catch(() => undefined);
        this.tailChecked = true;
      } catch (err) {
        this.failed = err instanceof Error ? err : new Error(String(err));
      }
    });
    return this.queue;
  }

  /**
   * Replaces the whole file with `records` (after the appends before it): written to a temporary
   * file and renamed over the old one, so a crash leaves the old log or the new one, never a mix.
   */
  replace(records: readonly T[]): Promise<void> {
    const text = records.map((r) => `${JSON.stringify(r)}\n`).join('');
    this.queue = this.queue.then(async () => {
      try {
        await mkdir(dirname(this.file), { recursive: true, mode: PRIVATE_FOLDER });
        const temp = `${this.file}.${process.pid}.tmp`;
        await writeFile(temp, text, { encoding: 'utf8', mode: PRIVATE_FILE });
        await rename(temp, this.file);
        this.tailChecked = true;
      } catch (err) {
        this.failed = err instanceof Error ? err : new Error(String(err));
      }
    });
    return this.queue;
  }

  /** The last write error, if any, so the caller can tell the person the chat is not being saved. */
  get lastError(): Error | undefined {
    return this.failed;
  }

  flush(): Promise<void> {
    return this.queue;
  }

  async load(): Promise<T[]> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const records: T[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const record = this.parse(JSON.parse(line));
        if (record !== undefined) records.push(record);
      } catch {
        // a torn or foreign line: skip it, keep the rest
      }
    }
    return records;
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
