import type { AskApproval } from '../core/agent/types';
// Text from the model or a server: escape sequences could move the cursor and redraw the question.
import { escapeControls as printable } from './escape';
import { editDiff } from './diff';

/** Where the question is asked: the CLI's line queue (shared with the REPL) and its output. */
export interface ApprovalTerminal {
  /** The next line typed after showing `prompt`; undefined once input has ended or `signal` aborted. */
  ask(prompt: string, opts?: { signal?: AbortSignal }): Promise<string | undefined>;
  line(text: string): void;
  /** Colour the diff of a file change. */
  color?: boolean;
}

const ALWAYS_CODE = 'always run code';

/**
 * Asks on the terminal. "Always" means this session (the CLI keeps no approvals on disk) and
 * comes in the same three kinds as the chat card: one letter for an ordinary tool, the typed words
 * "always run code" for running code (code can change any file, .vscode and .git included), and
 * not at all for files that always ask.
 */
export function terminalApproval(terminal: ApprovalTerminal): AskApproval {
  return async (request, signal) => {
    if (signal.aborted) return 'deny';
    terminal.line(`\n${printable(request.reason)} (${request.tool.qualifiedName})`);
    for (const note of request.notes) terminal.line(`  · ${printable(note)}`);
    for (const warning of request.warnings) terminal.line(`  ! ${printable(warning)}`);
    // A file change is shown as the change it makes; anything else as the call's preview.
    if (request.edit) terminal.line(editDiff(request.edit, terminal.color === true));
    else if (request.preview)
      terminal.line(
        printable(request.preview)
          .split('\n')
          .map((l) => `  │ ${l}`)
          .join('\n'),
      );
    const prompt =
      request.alwaysKind === 'tool'
        ? 'Allow? [y]es / [N]o / [a]lways for this session: '
        : request.alwaysKind === 'host'
          ? `Allow? [y]es / [N]o / [a]lways allow ${printable((request.hosts ?? []).join(', '))} for this session: `
          : request.alwaysKind === 'code'
            ? `Allow? [y]es / [N]o / type "${ALWAYS_CODE}" to run code without asking for the rest of this session (it can change any file here, including .vscode and .git): `
            : 'Allow? [y]es / [N]o (this one always asks): ';
    for (;;) {
      if (signal.aborted) return 'deny';
      const answer = (await terminal.ask(prompt, { signal }))?.trim().toLowerCase();
      // The turn was stopped while asking: the question is gone, not answered.
      if (signal.aborted) return 'deny';
      if (answer === undefined) {
        terminal.line('(no answer: input ended, denied)');
        return 'deny';
      }
      if (answer === 'y' || answer === 'yes') return 'once';
      const always = answer === 'a' || answer === 'always';
      if ((request.alwaysKind === 'tool' || request.alwaysKind === 'host') && always) return 'always';
      if (request.alwaysKind === 'code' && answer === ALWAYS_CODE) return 'always';
      // Asked for an "always" that takes more, or is not offered: say so rather than guess.
      if (request.alwaysKind === 'code' && always) {
        terminal.line(`(to stop being asked about code, type "${ALWAYS_CODE}"; "y" allows this once)`);
        continue;
      }
      if (request.alwaysKind === 'none' && always) terminal.line('("always" is not offered for this call: denied)');
      return 'deny';
    }
  };
}

/**
 * `--yes` approves tool calls, not data leaving the machine for a place nobody vouched for (egress-guard.ts):
 * such a call is asked on the terminal when there is one, and refused, saying why, when there is none.
 */
export function yesApproval(terminal: ApprovalTerminal | undefined): AskApproval {
  const asker = terminal && terminalApproval(terminal);
  return async (request, signal) => {
    if (!request.egress) return 'once';
    if (asker) return asker(request, signal);
    const hosts = request.egress.hosts.join(', ');
    process.stderr.write(
      `mcp-agent: refused ${printable(request.tool.qualifiedName)}: ${printable(request.egress.why)} --yes does not cover sending data out; ` +
        (request.egress.rememberable
          ? `name ${printable(hosts)} in your prompt or pass --allow-host ${printable(request.egress.hosts[0] ?? '')}.\n`
          : 'run it in a terminal to be asked.\n'),
    );
    return 'deny';
  };
}
