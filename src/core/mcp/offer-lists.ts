// Everything a server offers, each list followed through all its pages (paginate.ts).
import * as z from 'zod';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ToolSchema, type Prompt, type Resource, type ResourceTemplate, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { listAll } from './paginate';

/** One page of tools/list, each tool left unchecked: the SDK's schema refuses the whole page for one bad tool. */
const LenientPage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

/**
 * Every tool a server lists, one broken tool costing only itself: a tool without an `inputSchema` gets the
 * empty object schema (it takes no arguments), one that is still invalid (a non-object input schema, no
 * name) is left out and logged. The SDK client is told the tools kept, so it still checks structured
 * output against their output schemas.
 */
export async function listToolsLeniently(client: Client, options: RequestOptions, log: (line: string) => void): Promise<Tool[]> {
  const raw = await listAll((cursor) =>
    client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, LenientPage, options).then((r) => ({ items: r.tools, next: r.nextCursor })),
  );
  const tools: Tool[] = [];
  for (const item of raw) {
    const candidate = item && typeof item === 'object' && !('inputSchema' in item) ? { ...item, inputSchema: { type: 'object' } } : item;
    const parsed = ToolSchema.safeParse(candidate);
    if (parsed.success) {
      tools.push(parsed.data);
      continue;
    }
    const name = (item as { name?: unknown } | null)?.name;
    const issue = parsed.error.issues[0];
    log(`left out tool ${typeof name === 'string' ? `"${name}"` : '(no name)'}: ${issue ? `${issue.path.join('.') || 'tool'}: ${issue.message}` : 'invalid'}`);
  }
  // What client.listTools() would have done (private in SDK 1.32): checks structured output, knows task tools.
  (client as unknown as { cacheToolMetadata?: (tools: Tool[]) => void }).cacheToolMetadata?.(tools);
  return tools;
}

export function listResources(client: Client, options: RequestOptions): Promise<Resource[]> {
  return listAll((cursor) => client.listResources({ cursor }, options).then((r) => ({ items: r.resources, next: r.nextCursor })));
}

export function listResourceTemplates(client: Client, options: RequestOptions): Promise<ResourceTemplate[]> {
  return listAll((cursor) =>
    client.listResourceTemplates({ cursor }, options).then((r) => ({ items: r.resourceTemplates, next: r.nextCursor })),
  );
}

export function listPrompts(client: Client, options: RequestOptions): Promise<Prompt[]> {
  return listAll((cursor) => client.listPrompts({ cursor }, options).then((r) => ({ items: r.prompts, next: r.nextCursor })));
}
