import type { Tool } from '@modelcontextprotocol/client';

/**
 * MCP Apps (SEP-1865): what belongs to an app's view and not to the model. A tool's
 * `_meta.ui.visibility` lists who may call it ("model", "app"; absent means both), so a tool a server
 * made for its view alone is never offered to the model, and one made for the model alone is never
 * callable by a view. A view is HTML served as a `ui://` resource with the MIME type
 * `text/html;profile=mcp-app`: it is drawn for the person, and read as text it would only fill the
 * model's context with markup and script.
 */
export function visibleToModel(tool: Tool): boolean {
  const visibility = visibilityOf(tool);
  return visibility === undefined || visibility.includes('model');
}

/** Whether a view may call this tool (of its own server: views never reach another server's tools). */
export function visibleToApp(tool: Tool): boolean {
  const visibility = visibilityOf(tool);
  return visibility === undefined || visibility.includes('app');
}

function visibilityOf(tool: Tool): unknown[] | undefined {
  const visibility = (tool._meta?.ui as { visibility?: unknown } | undefined)?.visibility;
  return Array.isArray(visibility) ? visibility : undefined;
}

/** The `ui://` view a tool's results are drawn in (`_meta.ui.resourceUri`, or the flat key of early servers). */
export function viewUriOf(tool: Tool): string | undefined {
  const nested = (tool._meta?.ui as { resourceUri?: unknown } | undefined)?.resourceUri;
  const uri = typeof nested === 'string' ? nested : tool._meta?.['ui/resourceUri'];
  return typeof uri === 'string' && /^ui:\/\/\S{1,2000}$/i.test(uri) ? uri : undefined;
}

/** Where a terminal sends the person for a tool's view: the CLI's chats are the extension's, and its chat draws views. */
export const APP_VIEW_HINT = "a terminal cannot draw it; reopen this chat in VS Code (MCP Agent's Chats view) to see and use it";

/** The MIME type of a view. */
export const APP_VIEW_MIME = 'text/html;profile=mcp-app';

/** A resource that is an app's view (by its scheme or its MIME type). */
export function isAppView(resource: { uri: string; mimeType?: string }): boolean {
  return /^ui:/i.test(resource.uri) || /^text\/html\s*;\s*profile\s*=\s*"?mcp-app/i.test(resource.mimeType ?? '');
}

/** What the model is given instead of a view's HTML. */
export function appViewNote(uri: string): string {
  return `[${uri} is the view of an MCP App: HTML drawn for the person, not shown to the model]`;
}
