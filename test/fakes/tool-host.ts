/** A tool host made of plain functions, for tests of the agent loop without MCP processes (the hub has its own tests). */
import type { ToolHost } from '../../src/core/agent/types';
import type { CallOptions, CallToolResult, HubTool } from '../../src/core/mcp/types';

/** A tool host made of plain functions: the loop's contract, without processes (the hub has its own tests). */
export interface FakeTool {
  readOnly?: boolean;
  /** The tool definition's `_meta`, e.g. the sandbox claim of run_code. */
  meta?: Record<string, unknown>;
  run: (args: Record<string, unknown>, signal?: AbortSignal, options?: CallOptions) => Promise<CallToolResult>;
}

export function host(tools: Record<string, FakeTool>): ToolHost & { calls: string[] } {
  const calls: string[] = [];
  const list: HubTool[] = Object.entries(tools).map(([qualifiedName, t]) => {
    const [server, name] = qualifiedName.split('__');
    return {
      qualifiedName,
      server: server!,
      tool: {
        name: name!,
        description: `${name} tool`,
        inputSchema: { type: 'object', properties: {} },
        annotations: t.readOnly ? { readOnlyHint: true } : {},
        ...(t.meta ? { _meta: t.meta } : {}),
      },
    };
  });
  return {
    calls,
    tools: () => list,
    callTool: async (tool, args, options) => {
      const name = typeof tool === 'string' ? tool : tool.qualifiedName;
      calls.push(name);
      return tools[name]!.run(args, options?.signal, options);
    },
  };
}

export function memoryStore(): { has(k: string): boolean; add(k: string): void; keys: Set<string> } {
  const keys = new Set<string>();
  return { keys, has: (k) => keys.has(k), add: (k) => void keys.add(k) };
}
