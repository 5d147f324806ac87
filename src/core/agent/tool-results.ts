import type Anthropic from '@anthropic-ai/sdk';
import type { ToolContent } from '../../shared/protocol';
import type { CallToolResult } from '../mcp/types';
import { isImageMime } from '../../shared/image-types';
import { appViewNote, isAppView } from '../mcp/app-visibility';

type ToolResultContent = Exclude<Anthropic.ToolResultBlockParam['content'], string | undefined>;

/**
 * Converts an MCP tool result into what the model receives and what the chat shows.
 * The SDK's helpers/beta/mcp converters throw on audio and non-http resource links; here every
 * content kind becomes something (a short text description at worst), so a result is never lost.
 */
export function convertToolResult(result: CallToolResult): { forModel: ToolResultContent; forChat: ToolContent[] } {
  const forModel: ToolResultContent = [];
  const forChat: ToolContent[] = [];
  const addText = (text: string): void => {
    forModel.push({ type: 'text', text });
    forChat.push({ type: 'text', text });
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
          addText(`[image of type ${item.mimeType} not shown]`);
        }
        break;
      case 'resource':
        if (isAppView(item.resource)) addText(appViewNote(item.resource.uri));
        else if ('text' in item.resource && typeof item.resource.text === 'string') {
          addText(`Resource ${item.resource.uri}:\n${item.resource.text}`);
        } else {
          addText(`[binary resource ${item.resource.uri} (${item.resource.mimeType ?? 'unknown type'})]`);
        }
        break;
      case 'resource_link':
        addText(`Resource link: ${item.name} <${item.uri}>`);
        break;
      case 'audio':
        addText(`[audio of type ${item.mimeType} not supported]`);
        break;
    }
  }
  if (forModel.length === 0 && result.structuredContent) addText(JSON.stringify(result.structuredContent, null, 2));
  if (forModel.length === 0) addText(result.isError ? 'The tool failed without a message.' : '(no output)');
  return { forModel, forChat };
}
