import { createHash } from 'node:crypto';
import type { HubTool } from '../mcp/types';
import { isSensitivePath } from '../../common/sensitive-paths';

/** Where "always allow in this workspace" decisions live (workspace state in VS Code, memory in the CLI). */
export interface ApprovalStore {
  has(key: string): boolean;
  add(key: string): void | PromiseLike<void>;
}

export type ApprovalNeed = { ask: false } | { ask: true; reason: string; preview?: string; remember: boolean };

const PATH_KEYS = ['path', 'file', 'filename', 'target', 'database', 'destination'];
const PREVIEW_LIMIT = 4000;

/**
 * The key an "always" decision is stored under: server, tool and a hash of the tool's definition,
 * so a tool whose description, schema or annotations change is never auto-approved.
 */
export function approvalKey(tool: Pick<HubTool, 'server' | 'tool'>): string {
  const definition = JSON.stringify({
    description: tool.tool.description ?? '',
    inputSchema: tool.tool.inputSchema,
    annotations: tool.tool.annotations ?? {},
  });
  const hash = createHash('sha256').update(definition).digest('hex').slice(0, 16);
  return `${tool.server}/${tool.tool.name}@${hash}`;
}

/** Decides whether a call runs at once or asks the person first, and what the person is shown. */
export function approvalNeed(tool: HubTool, input: Record<string, unknown>, store: ApprovalStore): ApprovalNeed {
  const annotations = tool.tool.annotations ?? {};
  const sensitive = sensitivePathIn(input);
  if (sensitive) {
    return {
      ask: true,
      reason: `${tool.tool.name} touches ${sensitive}, which can change how the editor, git or MCP servers behave. It always needs your approval.`,
      preview: previewOf(tool, input),
      remember: false,
    };
  }
  if (annotations.readOnlyHint === true && annotations.destructiveHint !== true) return { ask: false };
  if (store.has(approvalKey(tool))) return { ask: false };
  return {
    ask: true,
    reason: reasonFor(tool, input),
    preview: previewOf(tool, input),
    remember: true,
  };
}

function sensitivePathIn(input: Record<string, unknown>): string | undefined {
  for (const key of PATH_KEYS) {
    const value = input[key];
    if (typeof value === 'string' && isSensitivePath(value)) return value;
  }
  return undefined;
}

function reasonFor(tool: HubTool, input: Record<string, unknown>): string {
  const path = PATH_KEYS.map((k) => input[k]).find((v): v is string => typeof v === 'string');
  switch (tool.tool.name) {
    case 'write_file':
      return `Write ${path ?? 'a file'} in the workspace`;
    case 'edit_file':
      return `Edit ${path ?? 'a file'} in the workspace`;
    case 'run_code':
      return 'Run Python code in the workspace folder';
    case 'query_database':
      return `Run SQL on ${path ?? 'data.db'}`;
    default:
      return `Call ${tool.server} · ${tool.tool.name}`;
  }
}

function previewOf(tool: HubTool, input: Record<string, unknown>): string {
  let text: string;
  if (typeof input.content === 'string') text = input.content;
  else if (typeof input.code === 'string') text = input.code;
  else if (typeof input.sql === 'string') text = input.sql + (input.params ? `\n-- params: ${JSON.stringify(input.params)}` : '');
  else if (typeof input.old_text === 'string' && typeof input.new_text === 'string') {
    text = `- ${input.old_text.split('\n').join('\n- ')}\n+ ${input.new_text.split('\n').join('\n+ ')}`;
  } else text = JSON.stringify(input, null, 2);
  if (text.length <= PREVIEW_LIMIT) return text;
  return `${text.slice(0, PREVIEW_LIMIT)}\n… (${text.length - PREVIEW_LIMIT} more characters)`;
}
