import type { Tool } from '@modelcontextprotocol/client';

/**
 * MCP Apps (SEP-1865): what belongs to an app's view and not to the model. A tool's
 * `_meta.ui.visibility` lists who may call it ("model", "app"; absent means both), so a tool a server
 * made for its view alone is never offered to the model. A view is HTML served as a `ui://` resource
 * with the MIME type `text/html;profile=mcp-app`: it is drawn for the person, and read as text it
 * would only fill the model's context with markup and script.
 */
export function visibleToModel(tool: Tool): boolean {
  const visibility = (tool._meta?.ui as { visibility?: unknown } | undefined)?.visibility;
  return !Array.isArray(visibility) || visibility.includes('model');
}

/** A resource that is an app's view (by its scheme or its MIME type). */
export function isAppView(resource: { uri: string; mimeType?: string }): boolean {
  return /^ui:/i.test(resource.uri) || /^text\/html\s*;\s*profile\s*=\s*"?mcp-app/i.test(resource.mimeType ?? '');
}

/** What the model is given instead of a view's HTML. */
export function appViewNote(uri: string): string {
  return `[${uri} is the view of an MCP App: HTML drawn for the person, not shown to the model]`;
}
