import { StringDecoder } from 'node:string_decoder';

/** Longest stderr line passed on whole; a longer one is cut (a server can print megabytes without a newline). */
const MAX_LINE_CHARS = 8 * 1024;

/**
 * Splits a process's stderr into lines for its log, each bounded: the held part of an unfinished line
 * never grows past MAX_LINE_CHARS, so a flood without newlines costs a few KiB, not the flood.
 */
export class StderrLines {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';
  private cut = false;

  constructor(private readonly online: (line: string) => void) {}

  push(chunk: Buffer): void {
    const text = this.partial + this.decoder.write(chunk);
    const lines = text.split(/\r?\n/);
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.emit(line);
    if (this.partial.length > MAX_LINE_CHARS) {
      if (!this.cut) this.online(`${this.partial.slice(0, MAX_LINE_CHARS)}… (line cut)`);
      this.cut = true;
      this.partial = '';
    }
  }

  /** The last line when it had no newline. */
  end(): void {
    const rest = this.partial + this.decoder.end();
    this.partial = '';
    if (rest) this.emit(rest);
  }

  private emit(line: string): void {
    // The tail of a line already cut is dropped with it.
    if (this.cut) {
      this.cut = false;
      return;
    }
    this.online(line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… (line cut)` : line);
  }
}
