import { appendFile, mkdir, open, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * An append-only JSONL file. Appends are queued so they land in order; a torn last line (the
 * window closed mid-write) or a line that fails validation is skipped on load, never fatal, and
 * the first append after one starts on a new line so it is not glued onto the fragment.
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
        await mkdir(dirname(this.file), { recursive: true });
        const lead = this.tailChecked || (await endsWithNewline(this.file)) ? '' : '\n';
        await appendFile(this.file, lead + line, 'utf8');
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
        await mkdir(dirname(this.file), { recursive: true });
        const temp = `${this.file}.${process.pid}.tmp`;
        await writeFile(temp, text, 'utf8');
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
