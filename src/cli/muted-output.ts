import { Writable } from 'node:stream';

/**
 * The output readline echoes typed text to, muted while a secret (a password input) is typed. A
 * stream of our own rather than readline's private `_writeToOutput`, which a Node upgrade may rename.
 */
export class MutableOutput extends Writable {
  muted = false;

  constructor(private readonly target: NodeJS.WriteStream) {
    super();
    // readline re-lays out the line on resize; pass it on.
    target.on('resize', () => this.emit('resize'));
  }

  override _write(chunk: Buffer | string, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (!this.muted) this.target.write(chunk, encoding);
    callback();
  }

  get columns(): number | undefined {
    return this.target.columns;
  }

  get rows(): number | undefined {
    return this.target.rows;
  }

  get isTTY(): boolean {
    return this.target.isTTY === true;
  }

  /** Asks with typed text hidden (on a terminal; piped input is never echoed anyway). */
  async askSecretly(ask: () => Promise<string | undefined>): Promise<string | undefined> {
    // Asking shows the prompt at once (through readline, so through this stream): only what follows is hidden.
    const answer = ask();
    this.muted = true;
    try {
      return await answer;
    } finally {
      this.muted = false;
      // The Enter that ended the answer was muted with it.
      if (this.target.isTTY) this.target.write('\n');
    }
  }
}
