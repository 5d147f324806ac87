import type { SamplingMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalTerminal } from './cli-approval';
import { escapeControls as printable } from './cli-escape';
import type { SamplingApproval, SamplingDecision } from './core/mcp/sampling-broker';

/** Characters of one message shown; the rest is counted, not printed (a server can send megabytes). */
const SHOWN_CHARS = 2000;

/**
 * A server's sampling request asked on the terminal: who asks, the messages, the system prompt, the token
 * limit, the model hint and the model it would run on; y(es) / N(o) / a(lways for this server, this run).
 * With --yes it is approved as tool calls are, and said so.
 */
export function terminalSampling(terminal: ApprovalTerminal, yes: boolean) {
  return async (request: SamplingApproval, signal: AbortSignal): Promise<SamplingDecision> => {
    terminal.line(`\nServer ${printable(request.server)} asks the model for a reply (sampling):`);
    if (request.systemPrompt) terminal.line(`  system prompt: ${shown(request.systemPrompt)}`);
    for (const m of request.messages) terminal.line(`  ${m.role}: ${shown(messageText(m))}`);
    const hint = request.modelHint ? `, model hint: ${printable(request.modelHint)}` : '';
    terminal.line(`  up to ${request.maxTokens} tokens on ${printable(request.model)}${hint}`);
    if (request.tools.length > 0) terminal.line(`  tools it offers the model: ${printable(request.tools.join(', '))}`);
    if (yes) {
      terminal.line('  (approved by --yes)');
      return 'once';
    }
    if (signal.aborted) return 'deny';
    const answer = (await terminal.ask('Allow? [y]es / [N]o / [a]lways for this server: '))?.trim().toLowerCase();
    if (answer === undefined) {
      terminal.line('(no answer: input ended, denied)');
      return 'deny';
    }
    if (signal.aborted) return 'deny';
    if (answer === 'y' || answer === 'yes') return 'once';
    if (answer === 'a' || answer === 'always') return 'always';
    return 'deny';
  };
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
