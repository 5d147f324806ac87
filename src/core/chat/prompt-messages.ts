import type Anthropic from '@anthropic-ai/sdk';
import type { GetPromptResult } from '@modelcontextprotocol/client';
import { base64Bytes, formatBytes } from '../../node/byte-size';
import { mergeConsecutive } from '../agent/history-repair';
import { RESULT_LIMITS } from '../agent/result-caps';
import { headOf } from '../agent/text-cut';
import { isImageMime } from '../../common/image-types';
import { appViewNote, isAppView } from '../mcp/requests/app-visibility';

type PromptMessage = GetPromptResult['messages'][number];
type Role = 'user' | 'assistant';

/** How much of each message the chat shows (the model gets all of it, within RESULT_LIMITS). */
const SHOWN_CHARS = 4000;

/** A prompt as the conversation gets it (the model) and as the chat shows it (the person). */
export interface PromptConversation {
  /** Alternating roles, first and last `user`, ready to append to a conversation whose last message is the model's. */
  messages: Anthropic.MessageParam[];
  shown: Array<{ role: Role; text: string }>;
}

/**
 * Turns an MCP prompt's messages into conversation messages, keeping their roles and what they
 * embed: text as text, an image as an image block, an embedded resource as a block naming its URI
 * (its text, a PDF as a document, an image as an image), a resource link as text naming it.
 * Consecutive messages of one role are joined, as the API wants roles to alternate. The API takes
 * images and documents from the person only, so in an assistant message they are named instead.
 * A prompt that starts with the assistant gets a first line from the person naming the prompt; one
 * that ends with the assistant gets a last one asking the model to go on, so the turn that follows
 * answers the prompt instead of prefilling (which newer models refuse).
 */
export function promptConversation(result: GetPromptResult, ref: string): PromptConversation {
  const shown = result.messages.map((m) => ({ role: m.role, text: shownText(m) }));
  const converted = result.messages.map((m): Anthropic.MessageParam => ({ role: m.role, content: blocksFor(m) }));
  const messages = mergeConsecutive(converted);
  if (messages[0]?.role !== 'user') messages.unshift({ role: 'user', content: [{ type: 'text', text: `[The prompt ${ref} follows.]` }] });
  if (messages.at(-1)?.role !== 'user')
    messages.push({ role: 'user', content: [{ type: 'text', text: `[Go on from your last message of the prompt ${ref}.]` }] });
  return { messages, shown };
}

/**
 * The prompt as text the person can review and edit in the composer before sending, as the research
 * seed shows a prompt first: only when every message is the person's own plain text, since the
 * composer holds neither the model's turns nor embedded resources (those prompts are sent as they are).
 */
export function composerText(result: GetPromptResult): string | undefined {
  const texts: string[] = [];
  for (const m of result.messages) {
    if (m.role !== 'user' || m.content.type !== 'text') return undefined;
    texts.push(m.content.text);
  }
  const text = texts.join('\n\n').trim();
  return text ? text : undefined;
}

function blocksFor(m: PromptMessage): Anthropic.ContentBlockParam[] {
  const c = m.content;
  const fromPerson = m.role === 'user';
  switch (c.type) {
    case 'text':
      return [{ type: 'text', text: capText(c.text) }];
    case 'image':
      if (fromPerson && isImageMime(c.mimeType) && c.data.length <= RESULT_LIMITS.imageBytes) {
        return [{ type: 'image', source: { type: 'base64', media_type: c.mimeType as 'image/png', data: c.data } }];
      }
      return [{ type: 'text', text: `[image of type ${c.mimeType}, ${formatBytes(base64Bytes(c.data))}, not shown]` }];
    case 'audio':
      return [{ type: 'text', text: `[audio of type ${c.mimeType} not supported]` }];
    case 'resource_link':
      return [
        {
          type: 'text',
          text: `[resource ${c.uri}${c.name ? ` (${c.name})` : ''}${c.mimeType ? `, ${c.mimeType}` : ''}: not included; it can be read with read_mcp_resource]`,
        },
      ];
    case 'resource': {
      const r = c.resource;
      if (isAppView(r)) return [{ type: 'text', text: appViewNote(r.uri) }];
      const type = r.mimeType ?? ('text' in r ? 'text/plain' : 'application/octet-stream');
      if ('text' in r && typeof r.text === 'string') {
        return [{ type: 'text', text: `<resource uri="${attr(r.uri)}" mimeType="${attr(type)}">\n${capText(r.text)}\n</resource>` }];
      }
      const blob = 'blob' in r && typeof r.blob === 'string' ? r.blob : '';
      if (fromPerson && isImageMime(type) && blob.length <= RESULT_LIMITS.imageBytes) {
        return [
          { type: 'text', text: `[resource ${r.uri}, ${type}:]` },
          { type: 'image', source: { type: 'base64', media_type: type as 'image/png', data: blob } },
        ];
      }
      if (fromPerson && type === 'application/pdf' && blob.length <= RESULT_LIMITS.imageBytes) {
        return [{ type: 'document', title: r.uri.slice(0, 500), source: { type: 'base64', media_type: 'application/pdf', data: blob } }];
      }
      return [{ type: 'text', text: `[resource ${r.uri}, ${type}, ${formatBytes(base64Bytes(blob))} of binary content, not shown]` }];
    }
  }
}

function shownText(m: PromptMessage): string {
  const c = m.content;
  const text =
    c.type === 'text'
      ? c.text
      : c.type === 'image'
        ? `[image, ${c.mimeType}]`
        : c.type === 'audio'
          ? `[audio, ${c.mimeType}]`
          : c.type === 'resource_link'
            ? `[resource link ${c.uri}]`
            : 'text' in c.resource && typeof c.resource.text === 'string'
              ? `[resource ${c.resource.uri}]\n${c.resource.text}`
              : `[resource ${c.resource.uri}, ${c.resource.mimeType ?? 'binary'}]`;
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}

/** A prompt is capped like a tool result: it stays in the conversation and is sent with every later request. */
function capText(text: string): string {
  const cut = headOf(text, RESULT_LIMITS.textPerResult);
  return cut.length === text.length ? text : `${cut}\n[… the prompt's text was cut at ${formatBytes(RESULT_LIMITS.textPerResult)}]`;
}

function attr(s: string): string {
  return s.replace(/[&"<>]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
