import type { SamplingMessage } from '@modelcontextprotocol/client';
import type { ApprovalTerminal } from './approval';
import { escapeControls as printable } from './escape';
import type { SamplingApproval, SamplingBrokerOptions, SamplingDecision } from '../core/sampling/sampling-broker';
import type { BudgetUse } from '../core/sampling/sampling-budget';

/** Characters of one message shown; the rest is counted, not printed (a server can send megabytes). */
const SHOWN_CHARS = 2000;

/**
 * A server's sampling request asked on the terminal: who asks, the messages, the system prompt, the token
 * limit, the model hint and the model it would run on; y(es) / N(o) / a(lways for this server, this run,
 * up to its token budget, sampling-budget.ts). With --yes it is approved as tool calls are, and said so,
 * as an "always" with the same budget: once that is spent, the server's requests are denied. A request
 * that runs without asking is still shown, with the budget used so far.
 */
export function terminalSampling(terminal: ApprovalTerminal, yes: boolean): Pick<SamplingBrokerOptions, 'ask' | 'allowed'> {
  return {
    ask: (request, signal) => askSampling(terminal, yes, request, signal),
    allowed: (request, budget) => {
      show(terminal, request);
      terminal.line(`  (allowed: always for this server, ${used(budget)} before this one)`);
    },
  };
}

async function askSampling(terminal: ApprovalTerminal, yes: boolean, request: SamplingApproval, signal: AbortSignal): Promise<SamplingDecision> {
  show(terminal, request);
  if (request.spent) terminal.line(`  (its budget after "always" is spent: ${used(request.spent)})`);
  if (yes) {
    if (request.spent) {
      terminal.line('  (denied: --yes allows a server no more sampling than one budget)');
      return 'deny';
    }
    terminal.line('  (approved by --yes)');
    terminal.line(`  (--yes lets this server sample up to ${request.alwaysLimit.toLocaleString('en-US')} tokens this run; past that its requests are denied)`);
    return 'always';
  }
  if (signal.aborted) return 'deny';
  const answer = (await terminal.ask(`Allow? [y]es / [N]o / [a]lways for this server (up to ${request.alwaysLimit.toLocaleString('en-US')} tokens): `))
    ?.trim()
    .toLowerCase();
  if (answer === undefined) {
    terminal.line('(no answer: input ended, denied)');
    return 'deny';
  }
  if (signal.aborted) return 'deny';
  if (answer === 'y' || answer === 'yes') return 'once';
  if (answer === 'a' || answer === 'always') return 'always';
  return 'deny';
}

function show(terminal: ApprovalTerminal, request: SamplingApproval): void {
  terminal.line(`\nServer ${printable(request.server)} asks the model for a reply (sampling):`);
  if (request.systemPrompt) terminal.line(`  system prompt: ${shown(request.systemPrompt)}`);
  for (const m of request.messages) terminal.line(`  ${m.role}: ${shown(messageText(m))}`);
  const hint = request.modelHint ? `, model hint: ${printable(request.modelHint)}` : '';
  const asked = request.asked
    ? ` (it asked for ${request.asked.maxTokens.toLocaleString('en-US')}: ${request.asked.limitedBy === 'model' ? 'the model writes at most this' : 'the most "always" allows'})`
    : '';
  terminal.line(`  up to ${request.maxTokens.toLocaleString('en-US')} tokens${asked} on ${printable(request.model)}${hint}`);
  if (request.tools.length > 0) terminal.line(`  tools it offers the model: ${printable(request.tools.join(', '))}`);
}

function used(b: BudgetUse): string {
  return `${b.used.toLocaleString('en-US')} of ${b.limit.toLocaleString('en-US')} tokens used`;
}

function messageText(m: SamplingMessage): string {
  const blocks = Array.isArray(m.content) ? m.content : [m.content];
  return blocks
    .map((b) => {
      if (b.type === 'text') return b.text;
      if (b.type === 'tool_use') return `[calls tool ${b.name} with ${JSON.stringify(b.input)}]`;
      if (b.type === 'tool_result') return `[result of tool call ${b.toolUseId}]`;
      return `[${b.type}${'mimeType' in b ? ` ${b.mimeType}` : ''}]`;
    })
    .join(' ');
}

function shown(text: string): string {
  const cut = text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}… (${text.length - SHOWN_CHARS} more characters)` : text;
  return printable(cut).replace(/\n/g, '\n    ');
}
