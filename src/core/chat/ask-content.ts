import type { SamplingMessage } from '@modelcontextprotocol/client';
import type { AskContent, ClientAsk } from '../../common/protocol';
import type { SamplingApproval } from '../sampling/sampling-broker';
import { isImageMime } from '../../common/image-types';
import { isViewAsker } from '../sampling/view-asker';

/** Characters of one text shown on a card; the rest is counted, not sent to the page (a server can send megabytes). */
const SHOWN_CHARS = 20_000;
/** Messages shown on a card; earlier ones are summed up in one line. */
const SHOWN_MESSAGES = 50;
/** Base64 characters of one image the card draws (the 5 MiB the model takes); a bigger one is named only. */
const MAX_IMAGE_CHARS = 7_000_000;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Images one card draws; later ones are named only, so a server cannot post hundreds of megabytes to the page. */
const MAX_IMAGES = 4;

/** The card for a sampling request: what the person reads before the model sees it. */
export function samplingAsk(askId: string, request: SamplingApproval): Extract<ClientAsk, { kind: 'sampling' }> {
  const skipped = Math.max(0, request.messages.length - SHOWN_MESSAGES);
  const images = { left: MAX_IMAGES };
  const messages = request.messages.slice(skipped).map((m) => ({ role: m.role, content: contentOf(m, images).slice(0, 100) }));
  if (skipped > 0) messages.unshift({ role: 'user', content: [{ type: 'other', label: `${skipped} earlier messages not shown` }] });
  return {
    kind: 'sampling',
    askId,
    server: cut(request.server, 200),
    ...(isViewAsker(request.server) ? { byView: true } : {}),
    messages,
    ...(request.systemPrompt ? { systemPrompt: cut(request.systemPrompt, SHOWN_CHARS) } : {}),
    maxTokens: request.maxTokens,
    ...(request.asked ? { asked: { maxTokens: request.asked.maxTokens, limitedBy: request.asked.limitedBy } } : {}),
    ...(request.modelHint ? { modelHint: cut(request.modelHint, 1_000) } : {}),
    model: cut(request.model, 200),
    tools: request.tools.slice(0, 200).map((t) => cut(t, 200)),
    alwaysLimit: request.alwaysLimit,
    ...(request.spent ? { spent: { used: request.spent.used, limit: request.spent.limit } } : {}),
  };
}

function contentOf(m: SamplingMessage, images: { left: number }): AskContent[] {
  const blocks = (Array.isArray(m.content) ? m.content : [m.content]).slice(0, 100);
  return blocks.map((b): AskContent => {
    switch (b.type) {
      case 'text':
        return { type: 'text', text: cut(b.text, SHOWN_CHARS) };
      case 'image':
        if (images.left > 0 && isImageMime(b.mimeType) && b.data.length <= MAX_IMAGE_CHARS && BASE64.test(b.data)) {
          images.left--;
          return { type: 'image', mimeType: b.mimeType as 'image/png', data: b.data };
        }
        return { type: 'other', label: `[image, ${cut(b.mimeType, 100)}, not shown${images.left === 0 ? `: a card draws at most ${MAX_IMAGES}` : ''}]` };
      case 'audio':
        return { type: 'other', label: `[audio, ${cut(b.mimeType, 100)}]` };
      case 'tool_use':
        return { type: 'other', label: cut(`[calls tool ${b.name} with ${JSON.stringify(b.input)}]`, 1_900) };
      case 'tool_result':
        return { type: 'other', label: cut(`[result of tool call ${b.toolUseId}]`, 1_900) };
      default:
        return { type: 'other', label: '[content of an unknown kind]' };
    }
  });
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 60)}… (${text.length - max + 60} more characters)` : text;
}
