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
    callTool: async (target, args, options) => {
      const tool = typeof target === 'string' ? hub.findTool(target) : target;
      if (!tool || !offers(allow, tool)) {
        return { content: [{ type: 'text', text: `${typeof target === 'string' ? target : target.qualifiedName} is not one of this agent's tools.` }], isError: true };
      }
      return hub.callTool(tool, args, options);
    },
  };
}
