import type { ChatEvent } from '../../common/protocol';
import type { ChatMeta } from './chat-meta';

/** A chat as a Markdown document: what the person saw, in order, with tool calls as collapsible details. */
export function transcriptMarkdown(meta: ChatMeta, events: readonly ChatEvent[]): string {
  const out: string[] = [`# ${meta.title}`, '', `${new Date(meta.createdAt).toISOString().slice(0, 16).replace('T', ' ')} UTC · ${meta.model}`, ''];
  const calls = new Map<string, Extract<ChatEvent, { kind: 'tool_call' }>>();
  for (const e of events) {
    switch (e.kind) {
      case 'user':
        out.push('## You', '', e.text, ...(e.attachments.length ? ['', `Attached: ${e.attachments.join(', ')}`] : []), '');
        for (const m of e.prompt?.messages ?? []) out.push(`**${m.role}:**`, '', m.text, '');
        break;
      case 'assistant_text':
        out.push(e.text, '');
        break;
      case 'tool_call':
        calls.set(e.callId, e);
        break;
      case 'tool_result': {
        const call = calls.get(e.callId);
        const name = call ? `${call.server}__${call.tool}` : 'tool';
        const text = e.content.map((c) => (c.type === 'text' ? c.text : `[${c.mimeType} image]`)).join('\n');
        out.push(
          '<details>',
          `<summary>${e.isError ? '✗' : '✓'} ${name}</summary>`,
          '',
          fence('json', JSON.stringify(call?.input ?? {}, null, 2)),
          '',
          fence('', text),
          '',
          '</details>',
          '',
        );
        break;
      }
      case 'turn_end':
        if (e.error) out.push(`> ${e.status === 'error' ? 'Error' : 'Note'}: ${e.error}`, '');
        break;
      case 'notice':
        out.push(`> ${e.text}`, '');
        break;
      default:
        break;
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** A fence longer than any run of backticks inside, so the content cannot close it. */
function fence(lang: string, text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text}\n${ticks}`;
}
