import * as z from 'zod';
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { base64Bytes, formatBytes } from '../../node/byte-size';
import type { CallOptions, CallToolResult, HubTool, ServerStatus } from '../mcp/types';
import type { ToolHost } from './types';
import { isImageMime } from '../../common/image-types';
import { messageOf } from '../../node/error-message';
import { resolveTool } from '../tool-call/approved-call';
import { appViewNote, isAppView } from '../mcp/requests/app-visibility';

/** What the resource tools need of the MCP host besides its tools (McpHub provides it). */
export interface ResourceHost extends ToolHost {
  statuses(): ServerStatus[];
  readResource(server: string, uri: string, opts?: CallOptions): Promise<ReadResourceResult>;
}

/**
 * The host's own tools. Server tools are always named `<server>__<tool>` (tool-names.ts puts `__`
 * in every name it makes), so a name without `__` can never be taken by a server.
 */
export const LIST_RESOURCES = 'list_mcp_resources';
export const READ_RESOURCE = 'read_mcp_resource';
/** The server the chat's tool card names for them. */
export const HOST_SERVER = 'mcp-agent';

/** A listing longer than this is cut (the result caps would cut it anyway; this says how to narrow it). */
const MAX_LISTED = 500;

const listInput = z.object({ server: z.string().min(1).max(200).optional() }).strict();
const readInput = z.object({ server: z.string().min(1).max(200), uri: z.string().min(1).max(8192) }).strict();

const listTool: HubTool = {
  qualifiedName: LIST_RESOURCES,
  server: HOST_SERVER,
  tool: {
    name: LIST_RESOURCES,
    description:
      'List the resources (and resource templates) that the connected MCP servers offer: server, URI, name, type. ' +
      'Read one with read_mcp_resource. Give `server` to list only that server.',
    inputSchema: { type: 'object', properties: { server: { type: 'string', description: 'Only this server.' } }, additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
};

const readTool: HubTool = {
  qualifiedName: READ_RESOURCE,
  server: HOST_SERVER,
  tool: {
    name: READ_RESOURCE,
    description:
      "Read one MCP resource by its server and URI (from list_mcp_resources, or a template's URI with its variables filled in). " +
      'Text comes back as text, images as images.',
    inputSchema: {
      type: 'object',
      properties: { server: { type: 'string', description: 'The server that offers it.' }, uri: { type: 'string', description: 'The resource URI.' } },
      required: ['server', 'uri'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
};

/**
 * `host` with two tools of the host's own added, so the model can see MCP resources without a
 * server tool that returns them: list what the ready servers offer, and read one. Both only read
 * what servers already offer, so they are marked read-only (no approval, approval-policy.ts). They
 * are offered only while some ready server has resources or templates.
 */
export function withResourceTools(host: ResourceHost): ToolHost {
  const own = (name: string): HubTool | undefined => (name === LIST_RESOURCES ? listTool : name === READ_RESOURCE ? readTool : undefined);
  return {
    tools: () => (withResources(host).length > 0 ? [...host.tools(), listTool, readTool] : host.tools()),
    findTool: (name) => {
      const tool = own(name);
      if (tool) return withResources(host).length > 0 ? tool : undefined;
      return resolveTool(host, name);
    },
    ...(host.pinned ? { pinned: host.pinned.bind(host) } : {}),
    statuses: () => host.statuses(),
    ...(host.ready ? { ready: host.ready.bind(host) } : {}),
    callTool: (tool, args, options) => {
      const name = typeof tool === 'string' ? tool : tool.qualifiedName;
      if (name === LIST_RESOURCES) return Promise.resolve(listResources(host, args));
      if (name === READ_RESOURCE) return readResource(host, args, options);
      return host.callTool(tool, args, options);
    },
  };
}

function withResources(host: ResourceHost): ServerStatus[] {
  return host.statuses().filter((s) => s.state === 'ready' && s.resources.length + s.resourceTemplates.length > 0);
}

function listResources(host: ResourceHost, args: Record<string, unknown>): CallToolResult {
  const input = listInput.safeParse(args);
  if (!input.success) return failure(`Bad input: ${z.prettifyError(input.error)}. Give no arguments, or { "server": "<name>" }.`);
  const servers = withResources(host);
  const picked = input.data.server === undefined ? servers : servers.filter((s) => s.name === input.data.server);
  if (picked.length === 0) {
    if (input.data.server !== undefined)
      return failure(`No ready server named ${input.data.server} offers resources. Servers with resources: ${names(servers)}.`);
    return text('No ready server offers resources.');
  }
  const lines = picked.flatMap((s) => [
    `${s.name}:`,
    ...s.resources.map((r) => `  ${r.uri}  ${r.title ?? r.name}${r.mimeType ? ` (${r.mimeType})` : ''}${r.description ? ` — ${oneLine(r.description)}` : ''}`),
    ...s.resourceTemplates.map((t) => `  ${t.uriTemplate}  template: ${t.title ?? t.name}${t.description ? ` — ${oneLine(t.description)}` : ''}`),
  ]);
  const cut =
    lines.length > MAX_LISTED ? [...lines.slice(0, MAX_LISTED), `[… ${lines.length - MAX_LISTED} more lines; give "server" to list one server]`] : lines;
  return text(cut.join('\n'));
}

async function readResource(host: ResourceHost, args: Record<string, unknown>, options: CallOptions | undefined): Promise<CallToolResult> {
  const input = readInput.safeParse(args);
  if (!input.success)
    return failure(`Bad input: ${z.prettifyError(input.error)}. Give { "server": "<name>", "uri": "<uri>" } (list_mcp_resources lists them).`);
  const { server, uri } = input.data;
  const status = host.statuses().find((s) => s.name === server);
  if (status?.state !== 'ready') {
    const why = status ? `is ${status.state}${status.error ? ` (${status.error})` : ''}` : 'does not exist';
    return failure(`Server ${server} ${why}. Servers with resources: ${names(withResources(host))}.`);
  }
  try {
    const result = await host.readResource(server, uri, {
      signal: options?.signal,
      timeoutMs: options?.timeoutMs,
      maxTotalTimeoutMs: options?.maxTotalTimeoutMs,
    });
    if (result.contents.length === 0) return text(`${uri} is empty.`);
    return { content: result.contents.map((c) => contentOf(c)) };
  } catch (err) {
    return failure(`Could not read ${uri} from ${server}: ${messageOf(err)}`);
  }
}

function contentOf(c: ReadResourceResult['contents'][number]): CallToolResult['content'][number] {
  if (isAppView(c)) return { type: 'text', text: appViewNote(c.uri) };
  const type = c.mimeType ?? ('text' in c ? 'text/plain' : 'application/octet-stream');
  if ('text' in c && typeof c.text === 'string') return { type: 'text', text: `Resource ${c.uri} (${type}):\n${c.text}` };
  const blob = 'blob' in c && typeof c.blob === 'string' ? c.blob : '';
  if (isImageMime(type)) return { type: 'image', mimeType: type, data: blob };
  return { type: 'text', text: `[resource ${c.uri}: ${formatBytes(base64Bytes(blob))} of ${type}, binary, not shown]` };
}

function names(servers: ServerStatus[]): string {
  return servers.map((s) => s.name).join(', ') || 'none';
}

function oneLine(s: string): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

function text(t: string): CallToolResult {
  return { content: [{ type: 'text', text: t }] };
}

function failure(t: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: t }] };
}
