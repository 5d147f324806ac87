import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';
import type { HubTool } from '../types';

/** Anthropic tool names: `[a-zA-Z0-9_-]{1,64}`. */
const MAX_TOOL_NAME_LENGTH = 64;
const VALID = /^[a-zA-Z0-9_-]{1,64}$/;
const SERVER_PART = 24;
const HASH = 8;

export function sanitizeName(s: string): string {
  return s.replace(/[^a-zA-Z0-9_-]/g, '_') || '_';
}

/**
 * Gives every tool of every server a name the model accepts: `<server>__<tool>` when that is
 * already valid and free, else the sanitised, shortened form plus a hash of the real names
 * (`my_server__a_very_long_tool_name_3f9a2c1d`), so two tools never share a name and a name does not
 * depend on which other servers happen to be up. Servers come in config order; earlier ones keep
 * the plain form when two plain forms clash (only possible with `__` inside names).
 */
export function qualifyTools(servers: ReadonlyArray<{ server: string; tools: readonly Tool[] }>): HubTool[] {
  const taken = new Set<string>();
  const out: HubTool[] = [];
  for (const { server, tools } of servers) {
    for (const tool of tools) {
      const plain = `${server}__${tool.name}`;
      let name = VALID.test(plain) && !taken.has(plain) ? plain : hashedName(server, tool.name);
      for (let n = 2; taken.has(name); n++) name = `${name.slice(0, MAX_TOOL_NAME_LENGTH - String(n).length - 1)}_${n}`;
      taken.add(name);
      out.push({ qualifiedName: name, server, tool });
    }
  }
  return out;
}

function hashedName(server: string, tool: string): string {
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, HASH);
  const prefix = `${sanitizeName(server).slice(0, SERVER_PART)}__${sanitizeName(tool)}`;
  return `${prefix.slice(0, MAX_TOOL_NAME_LENGTH - HASH - 1)}_${hash}`;
}

/** How a tool may be run (spec 2025-11-25 `execution.taskSupport`; absent means never as a task). */
function taskSupport(tool: Tool): 'required' | 'optional' | 'forbidden' {
  const value = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
  return value === 'required' || value === 'optional' ? value : 'forbidden';
}

/** A tool that runs only as a task: callable only on a server that takes task-augmented tools/call. */
export function needsTasks(tool: Tool): boolean {
  return taskSupport(tool) === 'required';
}

/**
 * Whether a call is sent as a task: always for `required`, and for `optional` too when the server takes tasks
 * (any call may turn out long; as a task it reports its status and is cancelled cleanly). undefined: it cannot
 * be called at all (it needs tasks the server does not take).
 */
export function runAsTask(tool: Tool | undefined, serverTakesTasks: boolean): boolean | undefined {
  const support = tool ? taskSupport(tool) : 'forbidden';
  if (support === 'forbidden') return false;
  if (serverTakesTasks) return true;
  return support === 'required' ? undefined : false;
}
