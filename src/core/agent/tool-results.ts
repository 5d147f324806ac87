import type Anthropic from '@anthropic-ai/sdk';
import type { ToolContent } from '../../common/protocol';
import type { CallToolResult } from '../mcp/types';
import { isImageMime } from '../../common/image-types';
import { appViewNote, isAppView } from '../mcp/requests/app-visibility';
import { binaryForModel } from './binary-content';

type ToolResultContent = Exclude<Anthropic.ToolResultBlockParam['content'], string | undefined>;

/**
 * Converts an MCP tool result into what the model receives and what the chat shows.
 * The SDK's helpers/beta/mcp converters throw on audio and non-http resource links; here every
 * content kind becomes something: binary content as the API takes it (an image, a PDF document, text)
 * or a note saying what was left out (binary-content.ts), so a result is never lost.
 */
export function convertToolResult(result: CallToolResult): { forModel: ToolResultContent; forChat: ToolContent[] } {
  const forModel: ToolResultContent = [];
  const forChat: ToolContent[] = [];
  const addText = (text: string): void => {
    forModel.push({ type: 'text', text });
    forChat.push({ type: 'text', text });
  };
  const addBinary = (base64: string, mimeType: string | undefined, what: string): void => {
    const converted = binaryForModel(base64, mimeType, what);
    if (converted.kind === 'text') return addText(converted.text);
    forModel.push(converted.block);
    if (converted.kind === 'image')
      forChat.push({ type: 'image', mimeType: converted.block.source.type === 'base64' ? converted.block.source.media_type : 'image/png', data: base64 });
    else forChat.push({ type: 'text', text: `[${what}: a PDF, sent to the model as a document]` });
  };
  for (const item of result.content ?? []) {
    switch (item.type) {
      case 'text':
        addText(item.text);
        break;
      case 'image':
        if (isImageMime(item.mimeType)) {
          forModel.push({
            type: 'image',
            source: { type: 'base64', media_type: item.mimeType as 'image/png', data: item.data },
          });
          forChat.push({ type: 'image', mimeType: item.mimeType, data: item.data });
        } else {
          addBinary(item.data, item.mimeType, 'an image');
        }
        break;
      case 'resource':
        if (isAppView(item.resource)) addText(appViewNote(item.resource.uri));
        else if ('text' in item.resource && typeof item.resource.text === 'string') {
          addText(`Resource ${item.resource.uri}:\n${item.resource.text}`);
        } else if ('blob' in item.resource && typeof item.resource.blob === 'string') {
          addBinary(item.resource.blob, item.resource.mimeType, `resource ${item.resource.uri}`);
        } else {
          addText(`[resource ${item.resource.uri} with no contents]`);
        }
        break;
      case 'resource_link':
        addText(`Resource link: ${item.name} <${item.uri}>`);
        break;
      case 'audio':
        addBinary(item.data, item.mimeType, 'audio');
        break;
    }
  }
  if (forModel.length === 0 && result.structuredContent) addText(JSON.stringify(result.structuredContent, null, 2));
  if (forModel.length === 0) addText(result.isError ? 'The tool failed without a message.' : '(no output)');
  return { forModel, forChat };
}
