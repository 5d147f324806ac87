// dist/cli.js on a real pseudo-terminal through script(1) (util-linux, on every Debian machine): keys are
// typed into it as a person types them, and what it draws is read back, as bytes or as the line the
// cursor is on once the terminal has applied them.
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { until } from '../../support/until';
import { CHATS_HOME, CLI } from './cli-process';

export interface PtyCli {
  /** Everything the CLI printed so far (stdout and stderr, as the terminal got them). */
  output(): string;
  /** Types `keys` (a carriage return is Enter, \x03 Ctrl+C, \x1b[A the Up arrow). */
  type(keys: string): void;
  /** Resolves once `text` has been printed `count` times in all; fails after 60 s (scaled) showing the output. */
  until(text: string, count?: number): Promise<void>;
  /** How many times `text` has been printed so far. */
  count(text: string): number;
  /** The line the cursor is on, as the terminal shows it. */
  cursorLine(): string;
  /** Resolves once the cursor's line is `line`; fails after `timeoutMs` (scaled) showing what it is instead. */
  untilLine(line: string, timeoutMs?: number): Promise<void>;
  exited: Promise<number | null>;
}

const running = new Set<ReturnType<typeof spawn>>();

/** Ends every CLI these helpers started that is still running (a test that failed half way leaves one waiting for input). */
export function stopPtyClis(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/** Starts the CLI on a terminal of type `term` ('dumb': readline does no line editing; 'xterm': it does, with Up-arrow history). */
export function cliOnPty(args: string[], env: Record<string, string>, term: 'dumb' | 'xterm' = 'dumb'): PtyCli {
  const command = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qefc', command, '/dev/null'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, MCP_AGENT_HOME: CHATS_HOME, TERM: term, NO_COLOR: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.add(child);
  child.on('close', () => running.delete(child));
  let out = '';
  const printed = new EventEmitter();
  child.stdout.on('data', (d: Buffer) => ((out += d.toString('utf8')), printed.emit('data')));
  child.stderr.on('data', (d: Buffer) => ((out += d.toString('utf8')), printed.emit('data')));
  const count = (text: string): number => out.split(text).length - 1;
  /** Wakes a wait on each chunk the CLI prints: the output is the only thing that changes its answer. */
  const onOutput = (check: () => void): (() => void) => (printed.on('data', check), () => void printed.off('data', check));
  return {
    output: () => out,
    type: (keys) => void child.stdin.write(keys),
    until: (text, n = 1) =>
      until(() => count(text) >= n, { what: `${JSON.stringify(text)} printed ${n} time(s)`, timeoutMs: 60_000, wake: onOutput, seen: () => out }).then(
        () => undefined,
      ),
    count,
    cursorLine: () => cursorLine(out),
    untilLine: (line, timeoutMs = 60_000) =>
      until(() => cursorLine(out) === line, {
        what: `the line under the cursor to be ${JSON.stringify(line)}`,
        timeoutMs,
        wake: onOutput,
        seen: () => cursorLine(out),
      }).then(() => undefined),
    exited: new Promise((resolve) => child.on('close', resolve)),
  };
}

/**
 * The line the cursor ends on after a terminal applies `output`: text, carriage return and line feed,
 * and the cursor and erase sequences readline draws its line with (CSI n G, C, D, K, J); colours and
 * other sequences change no text and are skipped.
 */
function cursorLine(output: string): string {
  let line: string[] = [];
  let col = 0;
  for (let i = 0; i < output.length; i++) {
    const c = output[i]!;
    if (c === '\n') {
      line = [];
      col = 0;
    } else if (c === '\r') col = 0;
    else if (c === '\b') col = Math.max(0, col - 1);
    else if (c === '\x1b') {
      const csi = /^\x1b\[([0-9;?]*)([@-~])/.exec(output.slice(i, i + 16));
      if (!csi) {
        i += 1;
        continue;
      }
      i += csi[0].length - 1;
      const n = Number(csi[1]?.split(';')[0] || 0);
      if (csi[2] === 'G') col = Math.max(0, (n || 1) - 1);
      else if (csi[2] === 'C') col += n || 1;
      else if (csi[2] === 'D') col = Math.max(0, col - (n || 1));
      else if ((csi[2] === 'K' || csi[2] === 'J') && n === 0) line = line.slice(0, col);
      else if ((csi[2] === 'K' || csi[2] === 'J') && n === 2) line = [];
    } else if (c >= ' ') {
      while (line.length < col) line.push(' ');
      line[col] = c;
      col += 1;
    }
  }
  return line.join('');
}
