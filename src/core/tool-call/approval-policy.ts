import { createHash } from 'node:crypto';
import { isAbsolute } from 'node:path';
import type { HubTool } from '../mcp/types';
import { sensitiveWhy } from '../../node/sensitive-paths';
import { READ_ONLY_CALLS } from '../../node/sql-read-only';
import type { AlwaysKind } from '../../common/protocol';
import { describeSandbox, runsCode, sandboxClaim } from './sandbox-status';

/** Where "always allow in this workspace" decisions live (workspace state in VS Code, memory in the CLI). */
export interface ApprovalStore {
  has(key: string): boolean;
  add(key: string): void | PromiseLike<void>;
}

/** What the person is shown when a call needs their approval. */
export interface ApprovalPrompt {
  reason: string;
  preview?: string;
  /** Shown prominently: what the call could do beyond its reason (e.g. no OS sandbox). */
  warnings: string[];
  /** Short neutral lines, e.g. the sandbox the code runs in. */
  notes: string[];
  /**
   * For running code: the gist of the notes and warnings in a few words. A front end with little room shows it and
   * keeps the notes and warnings one click away; `warning` says whether the gist is itself a warning.
   */
  summary?: { text: string; warning: boolean };
  /** Which "always" may be offered: for the tool, for running code (its own, clearly worded choice), for hosts, or none. */
  alwaysKind: AlwaysKind;
  /** With alwaysKind 'host': the hosts "always" would allow. */
  hosts?: string[];
}

/** `readOnlyCall`: it runs without asking only because its SQL reads; the server is told to hold it to that. */
export type ApprovalNeed = { ask: false; readOnlyCall?: true } | ({ ask: true } & ApprovalPrompt);

/** Argument names that hold a path, in the bundled servers and in the common third-party ones. */
const PATH_KEY = /path|file|dir|folder|target|dest|source|database|uri|^(to|from|out|output)$/i;
/** Except those that hold what goes into a file. */
const CONTENT_KEY = /content|text|body|code|^data$/i;
const PREVIEW_LIMIT = 4000;

/**
 * The key an "always" decision is stored under: server, tool and a hash of the tool's definition,
 * so a tool whose description, schema or annotations change is never auto-approved.
 */
export function approvalKey(tool: Pick<HubTool, 'server' | 'tool'>): string {
  const sandbox = sandboxClaim(tool);
  const definition = JSON.stringify({
    description: tool.tool.description ?? '',
    inputSchema: tool.tool.inputSchema,
    annotations: tool.tool.annotations ?? {},
    // Code allowed to run inside a sandbox must ask again once it would run outside one.
    ...(sandbox ? { sandbox: { available: sandbox.available, kind: sandbox.kind, network: sandbox.network } } : {}),
  });
  const hash = createHash('sha256').update(definition).digest('hex').slice(0, 16);
  return `${tool.server}/${tool.tool.name}@${hash}`;
}

/** Decides whether a call runs at once or asks the person first, and what the person is shown. */
export function approvalNeed(tool: HubTool, input: Record<string, unknown>, store: ApprovalStore): ApprovalNeed {
  const annotations = tool.tool.annotations ?? {};
  // Sensitive files are about what runs commands: reading one (a tool that says it only reads) changes nothing.
  const readOnly = annotations.readOnlyHint === true && annotations.destructiveHint !== true;
  const sensitive = readOnly ? undefined : pathsIn(input).find((p) => sensitiveWhy(p) !== undefined);
  if (sensitive !== undefined) {
    return {
      ask: true,
      reason: reasonFor(tool, input),
      preview: previewOf(tool, input),
      warnings: [
        `${sensitive}: ${sensitiveWhy(sensitive)} A write to it is a way to run code, so a call that touches it always needs your approval, whatever you allowed before.`,
      ],
      notes: [],
      alwaysKind: 'none',
    };
  }
  if (readOnly) return { ask: false };
  if (triesReadOnly(tool, input)) return { ask: false, readOnlyCall: true };
  return changeApproval(tool, input, store);
}

/** The approval of a call that changes something: asked unless "always" was given for this tool. */
export function changeApproval(tool: HubTool, input: Record<string, unknown>, store: ApprovalStore): ApprovalNeed {
  if (store.has(approvalKey(tool))) return { ask: false };
  const prompt: ApprovalPrompt = { reason: reasonFor(tool, input), preview: previewOf(tool, input), warnings: [], notes: [], alwaysKind: 'tool' };
  if (runsCode(tool)) {
    const sandbox = describeSandbox(tool);
    if (sandbox.warning) prompt.warnings.push(sandbox.warning);
    prompt.warnings.push(CODE_REACH);
    if (sandbox.note) prompt.notes.push(sandbox.note);
    prompt.summary = { text: sandbox.summary, warning: sandbox.warning !== undefined };
    prompt.alwaysKind = 'code';
  }
  return { ask: true, ...prompt };
}

/**
 * A tool that declares `_meta["mcpAgent/readOnlyCalls"]` (the workspace server's query_database)
 * first runs each statement without asking, marked `_meta["mcpAgent/readOnly"]`: the server runs
 * it under SQLite's query_only, so SQLite itself, not a keyword match, decides whether it writes.
 * A statement that writes is refused unchanged (`_meta["mcpAgent/wouldWrite"]` on the result), and
 * the agent then asks with changeApproval(). The server is trusted here as much as a readOnlyHint is.
 */
function triesReadOnly(tool: HubTool, input: Record<string, unknown>): boolean {
  const argument = tool.tool._meta?.[READ_ONLY_CALLS];
  return typeof argument === 'string' && typeof input[argument] === 'string';
}

const CODE_REACH = 'Code can change any file in this workspace, including .vscode and .git, where the editor and git find commands to run.';

/** Every string a path-like argument holds (a list of paths too), in argument order. */
export function pathsIn(input: Record<string, unknown>): string[] {
  return Object.entries(input)
    .filter(([key]) => PATH_KEY.test(key) && !CONTENT_KEY.test(key))
    .flatMap(([, value]) => (Array.isArray(value) ? value : [value]))
    .filter((v): v is string => typeof v === 'string')
    .map(fromFileUri);
}

/** `file:///ws/%2Egit/config` names the path the server will open, so read it as that path. */
function fromFileUri(value: string): string {
  if (!/^file:/i.test(value)) return value;
  const path = value.replace(/^file:(\/\/[^/]*)?/i, '');
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * " in the workspace" only for a path that stays inside it: an absolute path or one that climbs
 * out is named as it is (the server refuses it, but the card must not vouch for it).
 */
function where(path: string | undefined): string {
  if (path === undefined) return ' in the workspace';
  if (isAbsolute(path) || /^[a-z]:/i.test(path) || /^[\\/]/.test(path)) return ' (outside the workspace)';
  let depth = 0;
  for (const part of path.split(/[\\/]+/)) {
    if (part === '..') depth--;
    else if (part !== '.' && part !== '') depth++;
    if (depth < 0) return ' (outside the workspace)';
  }
  return ' in the workspace';
}

function reasonFor(tool: HubTool, input: Record<string, unknown>): string {
  const path = pathsIn(input)[0];
  switch (tool.tool.name) {
    case 'write_file':
      return `Write ${path ?? 'a file'}${where(path)}`;
    case 'edit_file':
      return `Edit ${path ?? 'a file'}${where(path)}`;
    case 'run_code':
      return 'Run Python code in the workspace folder';
    case 'query_database':
      return `Change ${path ?? 'data.db'} with SQL`;
    default:
      return `Call ${tool.server} · ${tool.tool.name}`;
  }
}

/** The call as the person is shown it: the content, code or SQL it carries, else its arguments. */
export function previewOf(tool: HubTool, input: Record<string, unknown>): string {
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
