// Everything a server offers, each list followed through all its pages.
import * as z from 'zod';
import { ToolSchema } from '@modelcontextprotocol/core';
import {
  SdkError,
  SdkErrorCode,
  type Client,
  type Prompt,
  type RequestOptions,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  type Tool,
} from '@modelcontextprotocol/client';
import { listAll } from './paginate';

/** A whole list, and how long the server said it may be kept (`ttlMs`, 2026-07-28; absent in 2025-11-25). */
export interface Listed<T> {
  items: T[];
  ttlMs?: number;
}

/** The SDK hides the cache fields from its result types; they are there at run time. */
function ttlOf(result: object): number | undefined {
  const ttl = (result as { ttlMs?: unknown }).ttlMs;
  return typeof ttl === 'number' ? ttl : undefined;
}

/** One page of tools/list, each tool left unchecked: the SDK's schema refuses the whole page for one bad tool. */
const LenientPage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

/**
 * Every tool a server lists. The SDK's own listing first: it honours the server's `ttlMs` (a fresh list is
 * served without a round trip) and, in the 2026-07-28 era over HTTP, leaves out tools whose `x-mcp-header`
 * declarations are invalid, as the spec requires. When it refuses the whole list for one broken tool, the
 * list is read again leniently, one broken tool costing only itself: a tool without an `inputSchema` gets
 * the empty object schema (it takes no arguments), one that is still invalid (a non-object input schema,
 * no name) is left out and logged.
 */
export async function listToolsLeniently(client: Client, options: RequestOptions, log: (line: string) => void): Promise<Listed<Tool>> {
  try {
    const listed = await client.listTools(undefined, options);
    return { items: listed.tools, ttlMs: ttlOf(listed) };
  } catch (err) {
    if (!isResultRefusal(err)) throw err;
  }
  const raw = await listAll((cursor) =>
    client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, LenientPage, options).then((r) => ({ items: r.tools, next: r.nextCursor })),
  );
  const tools: Tool[] = [];
  for (const item of raw) {
    const candidate = item && typeof item === 'object' && !('inputSchema' in item) ? { ...item, inputSchema: { type: 'object' } } : item;
    const parsed = ToolSchema.safeParse(candidate);
    if (parsed.success) {
      tools.push(parsed.data as Tool);
      continue;
    }
    const name = (item as { name?: unknown } | null)?.name;
    const issue = parsed.error.issues[0];
    log(`left out tool ${typeof name === 'string' ? `"${name}"` : '(no name)'}: ${issue ? `${issue.path.join('.') || 'tool'}: ${issue.message}` : 'invalid'}`);
  }
  return { items: tools };
}

/** The SDK's "the result did not fit its schema" (a listing it refused whole), as opposed to a failed request. */
function isResultRefusal(err: unknown): boolean {
  return err instanceof SdkError && err.code === SdkErrorCode.InvalidResult;
}

export async function listResources(client: Client, options: RequestOptions): Promise<Listed<Resource>> {
  const listed = await client.listResources(undefined, options);
  return { items: listed.resources, ttlMs: ttlOf(listed) };
}

export async function listResourceTemplates(client: Client, options: RequestOptions): Promise<Listed<ResourceTemplate>> {
  const listed = await client.listResourceTemplates(undefined, options);
  return { items: listed.resourceTemplates, ttlMs: ttlOf(listed) };
}

export async function listPrompts(client: Client, options: RequestOptions): Promise<Listed<Prompt>> {
  const listed = await client.listPrompts(undefined, options);
  return { items: listed.prompts, ttlMs: ttlOf(listed) };
}
