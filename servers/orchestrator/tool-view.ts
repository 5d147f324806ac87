import type { ToolHost } from '../../src/core/agent/types';
import type { McpHub } from '../../src/core/mcp/hub/hub';
import type { HubTool } from '../../src/core/mcp/types';
import { offers, type ToolAllowList } from './tool-allowlist';

/**
 * The hubs as one sub-agent sees them (the shared one, and its definition's own servers): only the tools
 * its definition allows, and their servers' states. Server names never repeat across them (agent-servers.ts).
 * A name is looked up once (findTool, or callTool given a name); a tool findTool gave is called on the hub of
 * its server, found by that name, never by looking the tool up again.
 */
export function toolView(hubs: readonly McpHub[], allow: ToolAllowList): ToolHost {
  const find = (name: string): HubTool | undefined => {
    for (const hub of hubs) {
      const tool = hub.findTool(name);
      if (tool) return offers(allow, tool) ? tool : undefined;
    }
    return undefined;
  };
  return {
    tools: () => hubs.flatMap((h) => h.tools()).filter((t) => offers(allow, t)),
    findTool: find,
    statuses: () => hubs.flatMap((h) => h.statuses()).filter((s) => allow.servers.has(s.name)),
    callTool: async (target, args, options) => {
      const tool = typeof target === 'string' ? find(target) : offers(allow, target) ? target : undefined;
      const hub = tool && hubs.find((h) => h.status(tool.server) !== undefined);
      if (!tool || !hub) {
        const name = typeof target === 'string' ? target : target.qualifiedName;
        return { content: [{ type: 'text', text: `${name} is not one of this agent's tools.` }], isError: true };
      }
      return hub.callTool(tool, args, options);
    },
  };
}
