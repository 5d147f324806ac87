import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { GeneralLog } from './general-log';

type Handler = (...args: unknown[]) => Promise<CallToolResult>;
type Register = (name: string, config: unknown, handler: Handler) => unknown;

/**
 * Every tool registered on `server` from now on writes its call and its result to the general log, as
 * the claude-agent seed logs each tool call and result. Done where tools are registered, so no tool
 * can be added without it.
 */
export function logToolCalls(server: McpServer, log: GeneralLog): void {
  const register = server.registerTool.bind(server) as unknown as Register;
  const logged: Register = (name, config, handler) =>
    register(name, config, async (...args: unknown[]) => {
      // A tool with an input schema is called with (arguments, extra); one without, with (extra) alone.
      log.toolCall(name, args.length > 1 ? args[0] : {});
      const result = await handler(...args);
      log.toolResult(name, { isError: result.isError ?? false, text: result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('') });
      return result;
    });
  (server as unknown as { registerTool: Register }).registerTool = logged;
}
