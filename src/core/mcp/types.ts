/** What the rest of the product sees of the MCP host. Implemented by McpHub (hub.ts). */
import type { CallToolResult, Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';

export interface StdioServerConfig {
  name: string;
  transport: 'stdio';
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
}
export type ServerConfig = StdioServerConfig;

export type ServerState = 'starting' | 'ready' | 'error' | 'stopped';

export interface ServerStatus {
  name: string;
  state: ServerState;
  /** Why it is in `error`, in words a person can act on. */
  error?: string;
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
}

/** A tool as the model sees it: `<server>__<tool>`. */
export interface HubTool {
  qualifiedName: string;
  server: string;
  tool: Tool;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  onProgress?: (progress: number, total: number | undefined, message: string | undefined) => void;
}

export type { CallToolResult };
