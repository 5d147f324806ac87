import type { Interface } from 'node:readline';
import { escapeControls as printable } from './escape';

interface AskOptions {
  /** On a terminal, put on the line to edit. */
  prefill?: string;
  /** The answer joins readline's history (Up-arrow): the REPL's messages do, answers to questions do not. */
  history?: boolean;
  /** The question is no longer asked once this aborts (the turn that asked it was stopped): it answers undefined. */
  signal?: AbortSignal;
}

export interface LineReader {
  /** The next line typed after showing `prompt`; undefined once input has ended (or `signal` aborted). */
  ask(prompt: string, opts?: AskOptions): Promise<string | undefined>;
}

/** readline's line being edited: documented as readable, and written here to drop what it holds. */
type EditedLine = Interface & { line: string; cursor: number; history?: string[] };

/**
 * One queue of lines for the REPL and every question, so piped input works for both: lines piped in
 * answer the questions in order, as a script means them to. On a terminal a question only takes what
 * is typed after it was shown: a `y⏎` typed while the model was still thinking, or half a word, is
 * dropped (and said) rather than taken for an answer the person never saw the question of. The
 * prompt is readline's own, so it is drawn again whenever readline redraws the line (Ctrl+C, Up-arrow).
 */
export function lineReader(rl: Interface, terminal: boolean, out: NodeJS.WritableStream, say: (text: string) => void): LineReader {
  const edited = rl as EditedLine;
  const buffered: string[] = [];
  const waiting: Array<{ resolve: (line: string | undefined) => void; history: boolean }> = [];
  let ended = false;
  rl.on('line', (line) => {
    const next = waiting.shift();
    if (!next) {
      buffered.push(line);
      return;
    }
    if (terminal) {
      if (!next.history && edited.history?.[0] === line) edited.history.shift();
      // Between questions nothing is asked: a redraw (Up-arrow during a turn) shows no stale prompt.
      rl.setPrompt('');
    }
    next.resolve(line);
  });
  rl.on('close', () => {
    ended = true;
    for (const w of waiting.splice(0)) w.resolve(undefined);
  });

  /** What was typed before the question was shown, dropped: whole lines and the line being typed. */
  const dropTypeAhead = (): void => {
    const early = [...buffered.splice(0), edited.line].filter((l) => l.length > 0);
    edited.line = '';
    edited.cursor = 0;
    if (early.length > 0) say(`[ignored what was typed before this question: ${early.map((l) => `"${printable(l)}"`).join(', ')}]`);
  };

  return {
    ask(prompt, opts) {
      if (!terminal) {
        out.write(prompt);
        if (buffered.length > 0) return Promise.resolve(buffered.shift());
      } else if (!ended) {
        dropTypeAhead();
        rl.setPrompt(prompt);
        rl.prompt();
        if (opts?.prefill) rl.write(opts.prefill);
      } else out.write(prompt);
      if (ended || opts?.signal?.aborted) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        const waiter = { resolve, history: opts?.history === true };
        waiting.push(waiter);
        opts?.signal?.addEventListener(
          'abort',
          () => {
            const at = waiting.indexOf(waiter);
            if (at === -1) return;
            waiting.splice(at, 1);
            if (terminal) rl.setPrompt('');
            resolve(undefined);
          },
          { once: true },
        );
      });
    },
  };
}
