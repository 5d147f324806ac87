import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * An append-only JSONL file. Appends are queued so they land in order; a torn last line (the
 * window closed mid-write) or a line that fails validation is skipped on load, never fatal.
 */
export class JsonlLog<T> {
  private queue: Promise<void> = Promise.resolve();
  private failed: Error | undefined;

  constructor(
    readonly file: string,
    private readonly parse: (value: unknown) => T | undefined,
  ) {}

  append(record: T): Promise<void> {
    const line = `${JSON.stringify(record)}\n`;
    this.queue = this.queue.then(async () => {
      try {
        await mkdir(dirname(this.file), { recursive: true });
        await appendFile(this.file, line, 'utf8');
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
