import type { Tool } from '@modelcontextprotocol/client';
import type { ToolHost } from '../agent/types';
import type { ServerStatus } from '../mcp/types';
import { visibleToModel } from '../mcp/requests/app-visibility';
import { needsTasks } from '../mcp/hub/tool-names';
import { planSummary, planTools, type ToolPlan } from './tool-plan';
import type { ToolChoices } from './tool-choices';

/**
 * Where each tool of a server stands for the model: sent with every request, found by search, turned
 * off by the person, made for an app's view only, or not callable here (it needs tasks its server does
 * not take). The Tools view and /tools both show this, from one place.
 */
export type ToolState = 'loaded' | 'deferred' | 'off' | 'app-only' | 'needs-tasks' | 'invalid-schema';

export const STATE_TEXT: Record<ToolState, string> = {
  loaded: 'loaded',
  deferred: 'found by search',
  off: 'turned off',
  'app-only': 'for its app only',
  'needs-tasks': 'needs tasks, which its server does not take',
  'invalid-schema': 'left out: its inputSchema is invalid',
};

export interface ToolStates {
  plan: ToolPlan;
  state(server: string, tool: Tool): ToolState;
  /** How many of the servers' tools the person turned off. */
  off: number;
}

/** `host` is the model's view of the tools (the person's choices applied), `statuses` every server's whole list. */
export function toolStates(statuses: readonly ServerStatus[], host: Pick<ToolHost, 'tools' | 'pinned'>, choices?: ToolChoices): ToolStates {
  const plan = planTools(host);
  const loaded = new Set(plan.loaded.map((t) => `${t.server}\0${t.tool.name}`));
  const tasks = new Map(statuses.map((s) => [s.name, s.tasks === true]));
  const invalid = new Map(statuses.map((s) => [s.name, s.invalidSchemas ?? {}]));
  const state = (server: string, tool: Tool): ToolState => {
    if (!visibleToModel(tool)) return 'app-only';
    if (Object.hasOwn(invalid.get(server) ?? {}, tool.name)) return 'invalid-schema';
    if (needsTasks(tool) && !tasks.get(server)) return 'needs-tasks';
    if (choices?.isOff(server) || choices?.isOff(server, tool.name)) return 'off';
    return loaded.has(`${server}\0${tool.name}`) ? 'loaded' : 'deferred';
  };
  const off = choices ? statuses.filter((s) => s.state === 'ready').reduce((n, s) => n + s.tools.filter((t) => state(s.name, t) === 'off').length, 0) : 0;
  return { plan, state, off };
}

/** The line both front ends and the chat's notice start with: "1,022 tools from 4 servers: 24 loaded, the rest found by search". */
export function statesSummary(states: ToolStates): string {
  return `${planSummary(states.plan)}${states.off > 0 ? `; ${states.off.toLocaleString('en-US')} turned off` : ''}`;
}
