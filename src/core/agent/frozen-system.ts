import type { ServerStatus } from '../mcp/types';
import type { ToolPlan } from '../tool-offer/tool-plan';
import { buildSystemPrompt } from './system-prompt';

/**
 * The system prompt a chat was started with, and the tools it lists. It is kept for the whole
 * chat: the system prompt is part of the cached prefix, and rewriting it whenever a server's tools
 * change would make every later call pay for the whole conversation again.
 */
export interface FrozenSystem {
  text: string;
  /** What the model has been told of (the prompt's list, then each change note): loaded tools by name, servers with tools found by search as `@server`. */
  tools: string[];
}

/** `@` cannot start a tool name (tool-names.ts), so a server's deferred tools are one entry of their own. */
const SEARCHED = '@';

export function freezeSystem(plan: ToolPlan, workspaceName: string, statuses: ServerStatus[]): FrozenSystem {
  return { text: buildSystemPrompt(plan.loaded, workspaceName, statuses, plan.deferred), tools: told(plan) };
}

/** Whether the model was told that some tools are found by search. */
export function toldDeferred(told: readonly string[]): boolean {
  return told.some((n) => n.startsWith(SEARCHED));
}

function told(plan: ToolPlan): string[] {
  return [...plan.loaded.map((t) => t.qualifiedName), ...new Set(plan.deferred.map((t) => `${SEARCHED}${t.server}`))];
}

/**
 * What changed in the tool list since the model was last told, as a line for the next user
 * message (the tool definitions themselves always reach the model with each request).
 */
export function toolChangeNote(before: readonly string[], plan: ToolPlan): { note: string; tools: string[] } | undefined {
  const now = told(plan);
  const had = new Set(before);
  const has = new Set(now);
  const added = now.filter((n) => !had.has(n));
  // A tool that moved from loaded to found by search is still there: the search note covers it.
  const deferred = new Set(plan.deferred.map((t) => t.qualifiedName));
  const removed = before.filter((n) => !has.has(n) && !deferred.has(n));
  if (added.length === 0 && removed.length === 0) return undefined;
  const tools = (names: string[]): string[] => names.filter((n) => !n.startsWith(SEARCHED));
  const servers = (names: string[]): string[] => names.filter((n) => n.startsWith(SEARCHED)).map((n) => n.slice(SEARCHED.length));
  const parts: string[] = [];
  if (tools(added).length) parts.push(`now available: ${list(tools(added))}`);
  if (servers(added).length) parts.push(`found with the tool search tool: the tools of ${list(servers(added))}`);
  if (tools(removed).length) parts.push(`no longer available: ${list(tools(removed))}`);
  if (servers(removed).length) parts.push(`no longer found by search: the tools of ${list(servers(removed))}`);
  return { note: `[The tool list changed since the start of this chat; ${parts.join('; ')}.]`, tools: now };
}

function list(names: string[]): string {
  return names.length > 30 ? `${names.slice(0, 30).join(', ')} and ${names.length - 30} more` : names.join(', ');
}
