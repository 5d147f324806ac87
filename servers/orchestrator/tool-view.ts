import type { ToolHost } from '../../src/core/agent/types';
import type { McpHub } from '../../src/core/mcp/hub/hub';
import { offers, type ToolAllowList } from './tool-allowlist';

/**
 * The hubs as one sub-agent sees them (the shared one, and its definition's own servers): only the tools
 * its definition allows, and their servers' states. Server names never repeat across them (agent-servers.ts).
 */
export function toolView(hubs: readonly McpHub[], allow: ToolAllowList): ToolHost {
  return {
    tools: () => hubs.flatMap((h) => h.tools()).filter((t) => offers(allow, t)),
    statuses: () => hubs.flatMap((h) => h.statuses()).filter((s) => allow.servers.has(s.name)),
    callTool: async (name, args, options) => {
      const hub = hubs.find((h) => h.findTool(name)) ?? hubs[0];
      const tool = hub?.findTool(name);
      if (!hub || !tool || !offers(allow, tool)) {
        return { content: [{ type: 'text', text: `${name} is not one of this agent's tools.` }], isError: true };
      }
      return hub.callTool(name, args, options);
    },
  };
}
