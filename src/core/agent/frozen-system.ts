import type { HubTool, ServerStatus } from '../mcp/types';
import { buildSystemPrompt } from './system-prompt';

/**
 * The system prompt a chat was started with, and the tools it lists. It is kept for the whole
 * chat: the system prompt is part of the cached prefix, and rewriting it whenever a server's tools
 * change would make every later call pay for the whole conversation again.
 */
export interface FrozenSystem {
  text: string;
  /** The tools the model has been told about (the prompt's list, then each change note). */
  tools: string[];
}

export function freezeSystem(tools: HubTool[], workspaceName: string, statuses: ServerStatus[]): FrozenSystem {
  return { text: buildSystemPrompt(tools, workspaceName, statuses), tools: tools.map((t) => t.qualifiedName) };
}

/**
 * What changed in the tool list since the model was last told, as a line for the next user
 * message (the tool definitions themselves always reach the model with each request).
 */
export function toolChangeNote(told: readonly string[], tools: readonly HubTool[]): { note: string; tools: string[] } | undefined {
  const now = tools.map((t) => t.qualifiedName);
  const before = new Set(told);
  const after = new Set(now);
  const added = now.filter((n) => !before.has(n));
  const removed = told.filter((n) => !after.has(n));
  if (added.length === 0 && removed.length === 0) return undefined;
  const parts: string[] = [];
  if (added.length) parts.push(`now available: ${list(added)}`);
  if (removed.length) parts.push(`no longer available: ${list(removed)}`);
  return { note: `[The tool list changed since the start of this chat; ${parts.join('; ')}.]`, tools: now };
}

function list(names: string[]): string {
  return names.length > 30 ? `${names.slice(0, 30).join(', ')} and ${names.length - 30} more` : names.join(', ');
}
