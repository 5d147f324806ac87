import { relative } from 'node:path';
import { escapeControls as printable } from './escape';
import type { AskInput, InputRequest } from '../core/mcp/config/vscode-inputs';
import type { ServerTerminal } from './servers';

const MAX_TRIES = 3;

/** mcp.json's `inputs` asked on the terminal: promptString as typed (hidden for passwords), pickString by number or value. */
export function terminalInput(term: Pick<ServerTerminal, 'ask' | 'line'>, workspaceFolder: string): AskInput {
  return async (input, source) => {
    const from = relative(workspaceFolder, source.file);
    const fallback = input.default !== undefined ? ` [${input.default}]` : '';
    if (input.type === 'promptString') {
      const answer = await term.ask(printable(`${input.description} (input "${input.id}" of ${from})${fallback}: `), { secret: input.password });
      return answer === undefined ? undefined : answer || input.default || '';
    }
    term.line(printable(`${input.description} (input "${input.id}" of ${from}):`));
    (input.options ?? []).forEach((o, i) => term.line(printable(`  ${i + 1}. ${o.label}${o.label !== o.value ? ` (${o.value})` : ''}`)));
    for (let i = 0; i < MAX_TRIES; i++) {
      const answer = (await term.ask(`Pick 1-${input.options?.length ?? 0}${fallback}: `))?.trim();
      if (answer === undefined) return undefined;
      const picked = pick(input, answer);
      if (picked !== undefined) return picked;
    }
    return undefined;
  };
}

function pick(input: InputRequest, answer: string): string | undefined {
  const options = input.options ?? [];
  if (answer === '') return input.default;
  const n = Number(answer);
  if (Number.isInteger(n) && n >= 1 && n <= options.length) return options[n - 1]?.value;
  return options.find((o) => o.value === answer || o.label === answer)?.value;
}
