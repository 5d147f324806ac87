import type { CallToolResult, HubTool } from '../mcp/types';
import { viewUriOf } from '../mcp/requests/app-visibility';

/** The most of a result kept for a view with the chat (it is drawn again from it when the chat is reopened). */
const MAX_APP_RESULT_BYTES = 2 * 1024 * 1024;

/** What a tool_call event says of a tool with a view: the view to draw under its card. */
export function appOf(tool: HubTool | undefined): { app?: { resourceUri: string } } {
  const resourceUri = tool && viewUriOf(tool.tool);
  return resourceUri ? { app: { resourceUri } } : {};
}

/**
 * What a tool_result event keeps for a tool with a view: the result as the server sent it (a view reads its
 * structuredContent and _meta, which the model and the card never see), or, past MAX_APP_RESULT_BYTES, its
 * content alone with a note, so a chat's file never holds a view's megabytes.
 */
export function appResultOf(tool: HubTool | undefined, result: CallToolResult): { appResult?: CallToolResult } {
  if (!tool || !viewUriOf(tool.tool)) return {};
  const json = JSON.stringify(result);
  if (json.length <= MAX_APP_RESULT_BYTES) return { appResult: result };
  const note = { type: 'text' as const, text: `[the result was ${Math.round(json.length / 1024)} KB, more than its view is kept; its text follows]` };
  const text = result.content.filter((c) => c.type === 'text').slice(0, 20);
  const small: CallToolResult = { content: [note, ...text], ...(result.isError ? { isError: true } : {}) };
  return JSON.stringify(small).length <= MAX_APP_RESULT_BYTES
    ? { appResult: small }
    : { appResult: { content: [note], ...(result.isError ? { isError: true } : {}) } };
}
