/**
 * The last few KiB a server wrote to stderr, for diagnoses ("last stderr: ..."). Bounded: a server
 * that floods stderr costs at most `capacity` bytes here, and reading keeps the pipe drained so the
 * child never blocks on a full stderr pipe.
 */
export class StderrTail {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Every byte seen, kept or not. */
  total = 0;

  constructor(readonly capacity = 16 * 1024) {}

  push(chunk: Buffer | string): void {
    let b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.total += b.length;
    if (b.length >= this.capacity) {
      b = Buffer.from(b.subarray(b.length - this.capacity));
      this.chunks = [];
      this.size = 0;
    }
    this.chunks.push(b);
    this.size += b.length;
    while (this.size > this.capacity) {
      const first = this.chunks[0] as Buffer;
      const excess = this.size - this.capacity;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        // Copy so the dropped part of a large chunk can be freed.
        this.chunks[0] = Buffer.from(first.subarray(excess));
        this.size -= excess;
      }
    }
  }

  /** Bytes held right now (never more than `capacity`). */
  get held(): number {
    return this.size;
  }

  /** The kept text, or its last `maxChars` characters, trimmed. */
  text(maxChars = this.capacity): string {
    const s = Buffer.concat(this.chunks, this.size)
      .toString('utf8')
      .replace(/^\uFFFD+/, '');
    const cut = s.length > maxChars ? `…${s.slice(s.length - maxChars)}` : s;
    return cut.trim();
  }
}
