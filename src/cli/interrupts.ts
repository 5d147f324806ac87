import type { Interface } from 'node:readline';

/** What Ctrl+C and Escape act on: the turn running now, if one is. */
export interface Stoppable {
  stop(): void;
}

/**
 * Ctrl+C and Escape in the REPL, as in the chat: during a turn they stop the turn and the session goes
 * on; at the prompt Ctrl+C clears what was typed, and at an empty prompt it says how to leave, and
 * leaves when pressed again. Without a terminal (piped input) Ctrl+C stops a turn or else leaves. A
 * one-shot run is stopped by one Ctrl+C, and so is a piped REPL left with one: both exit 130.
 */
export class Interrupts {
  /** A Ctrl+C at an empty prompt was pressed: the next one leaves. */
  private armed = false;
  /** Ctrl+C (or SIGINT) ended the run or stopped its one turn: the CLI exits 130, as a shell reports an interrupted command. */
  interrupted = false;

  constructor(
    private readonly rl: Interface,
    private readonly running: () => Stoppable | undefined,
    private readonly say: (text: string) => void,
    private readonly terminal: boolean,
    /** A run of one prompt: Ctrl+C there always means "stop and exit". */
    private readonly oneShot = false,
  ) {}

  /** Listens on the terminal (readline owns Ctrl+C there) and on the process (it gets the signal without one). */
  listen(): void {
    this.rl.on('SIGINT', () => this.ctrlC());
    process.on('SIGINT', () => this.ctrlC());
    if (!this.terminal) return;
    process.stdin.on('keypress', (_text: string | undefined, key: { name?: string; ctrl?: boolean } | undefined) => {
      if (key?.name === 'escape') this.running()?.stop();
      else if (key && !(key.ctrl && key.name === 'c')) this.armed = false;
    });
  }

  ctrlC(): void {
    const turn = this.running();
    if (turn) {
      turn.stop();
      this.armed = false;
      if (this.oneShot) this.interrupted = true;
      return;
    }
    if (!this.terminal || this.armed || this.oneShot) {
      // Leaving the REPL with Ctrl+C twice is the person's way out, as "exit" is; anything else was interrupted.
      if (!this.terminal || this.oneShot) this.interrupted = true;
      this.rl.close();
      return;
    }
    const rl = this.rl as Interface & { line: string; cursor: number };
    if (rl.line !== '') {
      this.clearLine(rl);
      return;
    }
    this.armed = true;
    this.say('(press Ctrl+C again to exit, or type "exit")');
    this.reprompt();
  }

  /** Shows the open question's prompt again on a line of its own (readline keeps it: line-reader.ts). */
  private reprompt(): void {
    if (this.rl.getPrompt() !== '') this.rl.prompt();
  }

  /** Drops what was typed, as a shell does on Ctrl+C. */
  private clearLine(rl: Interface & { line: string; cursor: number }): void {
    // A dumb terminal (Emacs' shell, the tests' pseudo-terminal) gets no line editing from readline, so
    // no Ctrl+U: the typed text is dropped from the line and a new line starts.
    if (process.env.TERM === 'dumb') {
      rl.line = '';
      rl.cursor = 0;
      this.say('');
      this.reprompt();
      return;
    }
    rl.write(null, { ctrl: true, name: 'u' });
  }
}
