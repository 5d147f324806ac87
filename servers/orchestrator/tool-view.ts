import type { ToolHost } from '../../src/core/agent/types';
import type { McpHub } from '../../src/core/mcp/hub/hub';
import { offers, type ToolAllowList } from './tool-allowlist';

/**
 * The hubs as one sub-agent sees them (the shared one, and its definition's own servers): only the tools
 * its definition allows, and their servers' states. Server names never repeat across them (agent-servers.ts).
 */
export function toolView(hubs: readonly McpHub[], allow: ToolAllowList): ToolHost {
  const hubOf = (name: string): McpHub | undefined => hubs.find((h) => h.findTool(name));
  return {
    tools: () => hubs.flatMap((h) => h.tools()).filter((t) => offers(allow, t)),
    findTool: (name) => {
      const tool = hubOf(name)?.findTool(name);
      return tool && offers(allow, tool) ? tool : undefined;
    },
    statuses: () => hubs.flatMap((h) => h.statuses()).filter((s) => allow.servers.has(s.name)),
    callTool: async (target, args, options) => {
      const name = typeof target === 'string' ? target : target.qualifiedName;
      const hub = hubOf(name);
      const tool = typeof target === 'string' ? hub?.findTool(name) : target;
      if (!hub || !tool || !offers(allow, tool)) {
        return { content: [{ type: 'text', text: `${name} is not one of this agent's tools.` }], isError: true };
      }
      return hub.callTool(tool, args, options);
    },
  };
}
