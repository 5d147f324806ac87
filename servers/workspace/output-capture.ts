import { formatBytes } from '../../src/node/byte-size';

/**
 * Keeps the start and the end of a stream that may be endless (`print("x" * 10**9)`): memory stays
 * at `headBytes + tailBytes` however much arrives, and the total is counted to report the cut.
 */
export class CappedOutput {
  private head: Buffer[] = [];
  private headSize = 0;
  private tail: Buffer[] = [];
  private tailSize = 0;
  total = 0;

  constructor(
    private readonly headBytes = 64 * 1024,
    private readonly tailBytes = 36 * 1024,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.headSize < this.headBytes) {
      const take = chunk.subarray(0, this.headBytes - this.headSize);
      this.head.push(take);
      this.headSize += take.length;
      chunk = chunk.subarray(take.length);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailSize += chunk.length;
    for (let first = this.tail[0]; first && this.tailSize - first.length >= this.tailBytes; first = this.tail[0]) {
      this.tail.shift();
      this.tailSize -= first.length;
    }
  }

  get cut(): number {
    return Math.max(0, this.total - this.headBytes - this.tailBytes);
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    let tail = Buffer.concat(this.tail);
    if (tail.length > this.tailBytes) tail = tail.subarray(tail.length - this.tailBytes);
    if (this.cut === 0) return head + tail.toString('utf8');
    return (
      `${head}\n[... ${formatBytes(this.cut)} cut: showing the first ${formatBytes(this.headBytes)} and the last ` +
      `${formatBytes(this.tailBytes)} of ${formatBytes(this.total)} ...]\n${tail.toString('utf8')}`
    );
  }
}
