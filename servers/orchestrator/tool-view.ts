import type { ToolHost } from '../../src/core/agent/types';
import type { McpHub } from '../../src/core/mcp/hub/hub';
import { offers, type ToolAllowList } from './tool-allowlist';

/** The hub as one sub-agent sees it: only the tools its definition allows, and their servers' states. */
export function toolView(hub: McpHub, allow: ToolAllowList): ToolHost {
  return {
    tools: () => hub.tools().filter((t) => offers(allow, t)),
    findTool: (name) => {
      const tool = hub.findTool(name);
      return tool && offers(allow, tool) ? tool : undefined;
    },
    statuses: () => hub.statuses().filter((s) => allow.servers.has(s.name)),
    callTool: async (name, args, options) => {
      const tool = hub.findTool(name);
      if (!tool || !offers(allow, tool)) {
        return { content: [{ type: 'text', text: `${name} is not one of this agent's tools.` }], isError: true };
      }
      return hub.callTool(name, args, options);
    },
  };
}
