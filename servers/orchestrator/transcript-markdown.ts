import type Anthropic from '@anthropic-ai/sdk';
import { costOf } from '../../src/core/usage/prices';
import type { SessionRecord } from './session-store';
import { totalTokens } from './session-tokens';

/** How much of one tool input or result the transcript shows; the model saw it whole. */
const MAX_BLOCK_CHARS = 4000;

/** A session as a read-only Markdown document: its summary, then every message in order. */
export function transcriptMarkdown(record: SessionRecord, messages: readonly Anthropic.MessageParam[]): string {
  const lines = [`# Session ${record.name}`, '', ...summaryLines(record), ''];
  for (const message of messages) {
    lines.push(message.role === 'user' ? '## Prompt' : '## Agent', '');
    const blocks = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
    for (const block of blocks) lines.push(...blockLines(block), '');
  }
  if (messages.length === 0) lines.push('_No messages yet._');
  return `${lines.join('\n').trimEnd()}\n`;
}

function costText(r: SessionRecord): string {
  const cost = costOf(r.model, r.usage);
  return cost === undefined ? '' : `, about $${cost.toFixed(4)}`;
}

function summaryLines(r: SessionRecord): string[] {
  return [
    `- Agent: ${r.agent} (${r.model})`,
    `- Status: ${r.status}${r.detail ? ` — ${oneLine(r.detail)}` : ''}`,
    `- Turns: ${r.turns}`,
    `- Tokens: ${totalTokens(r.usage)} (input ${r.usage.input}, cache read ${r.usage.cacheRead}, cache write ${r.usage.cacheWrite}, output ${r.usage.output})${costText(r)}`,
    `- Created: ${r.created}`,
    `- Last activity: ${r.lastActivity}`,
  ];
}

function blockLines(block: Anthropic.ContentBlockParam): string[] {
  switch (block.type) {
    case 'text':
      return [block.text];
    case 'tool_use':
      return [`**Tool call** \`${block.name}\``, ...fenced('json', JSON.stringify(block.input, null, 2))];
    case 'tool_result': {
      const text =
        typeof block.content === 'string' ? block.content : (block.content ?? []).map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
      return [block.is_error ? '**Tool error**' : '**Tool result**', ...fenced('', text)];
    }
    default:
      return [`_[${block.type}]_`];
  }
}

/** A fence longer than any run of backticks inside, so a result cannot close it and inject Markdown. */
function fenced(lang: string, text: string): string[] {
  const cut = text.length > MAX_BLOCK_CHARS ? `${text.slice(0, MAX_BLOCK_CHARS)}\n… (${text.length - MAX_BLOCK_CHARS} more characters)` : text;
  const longest = Math.max(2, ...[...cut.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}${lang}`, cut, fence];
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
