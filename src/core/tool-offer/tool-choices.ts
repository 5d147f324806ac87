import { OWN_SERVERS_GRACE_MS, untilReadyEnough, type ReadinessSource } from '../mcp/hub/readiness';
import type { ToolHost } from '../agent/types';
import type { HubTool } from '../mcp/types';
import { resolveTool } from '../tool-call/approved-call';
import { withResourceTools, type ResourceHost } from '../agent/resource-tools';

/**
 * What the person decided about tools for the model (the extension keeps it per workspace, like VS
 * Code's tool picker): a server or a tool turned off is never sent nor callable by the model (its
 * server keeps running: the Resources view and prompts still use it); a pinned tool always goes in full.
 */
export interface ToolChoices {
  /** `tool` absent: the whole server. */
  isOff(server: string, tool?: string): boolean;
  isPinned(server: string, tool: string): boolean;
}

function isOn(choices: ToolChoices, t: Pick<HubTool, 'server' | 'tool'>): boolean {
  return !choices.isOff(t.server) && !choices.isOff(t.server, t.tool.name);
}

/** `host` as the model sees it under the person's choices. */
export function withToolChoices(host: ToolHost, choices: ToolChoices): ToolHost {
  return {
    tools: () => host.tools().filter((t) => isOn(choices, t)),
    findTool: (name) => {
      const tool = resolveTool(host, name);
      return tool && isOn(choices, tool) ? tool : undefined;
    },
    pinned: (t) => choices.isPinned(t.server, t.tool.name) || host.pinned?.(t) === true,
    ...(host.statuses ? { statuses: host.statuses.bind(host) } : {}),
    ...(host.ready ? { ready: host.ready.bind(host) } : {}),
    callTool: (tool, args, options) => host.callTool(tool, args, options),
  };
}

/** The host every front end gives its chats: the hub with the host's resource tools, under the person's choices (if any). */
export function modelToolHost(hub: ResourceHost & ReadinessSource, choices?: ToolChoices): ToolHost {
  const host = { ...withResourceTools(hub), ready: (signal: AbortSignal) => untilReadyEnough(hub, OWN_SERVERS_GRACE_MS, signal) };
  return choices ? withToolChoices(host, choices) : host;
}
