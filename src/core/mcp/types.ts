/** What the rest of the product sees of the MCP host. Implemented by McpHub (hub.ts). */
import type { CallToolResult, Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';

/** Where a server the person configured was defined; bundled servers have none. */
export interface ServerSource {
  /** The config file, absolute. */
  file: string;
  /** `vscode`: VS Code's `.vscode/mcp.json` (`servers`); `claude`: Claude's `mcpServers` (`.mcp.json`, `--mcp-config`). */
  format: 'vscode' | 'claude';
  /** `workspace`: the file came with the workspace, so it starts only after consent; `user`: the person named it. */
  origin: 'workspace' | 'user';
  /** The server's name in that file, before it was made unique and safe for tool names. */
  key: string;
}

export interface StdioServerConfig {
  name: string;
  transport: 'stdio';
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  source?: ServerSource;
  /** How long it is given to answer initialize on its first try (its config's `startTimeout`); the host's limit without. */
  startTimeoutMs?: number;
  /**
   * The era the host speaks with this server whatever it offers (no probe). The bundled servers serve both eras
   * to any client; the host keeps the orchestrator alone in 2025-11-25, whose sub-agents ask the person in the
   * middle of a turn, which a 2026-07-28 call cannot (bundled-servers.ts says why).
   */
  era?: 'legacy';
}

/** A server reached over streamable HTTP (`http`) or the older HTTP+SSE transport (`sse`). */
export interface HttpServerConfig {
  name: string;
  transport: 'http' | 'sse';
  url: string;
  headers?: Record<string, string>;
  source?: ServerSource;
  /** How long it is given to answer initialize on its first try (its config's `startTimeout`); the host's limit without. */
  startTimeoutMs?: number;
}

export type ServerConfig = StdioServerConfig | HttpServerConfig;

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
  /** What is going on besides the state, e.g. "restarting in 1 s after it exited (code 1)". */
  detail?: string;
  /** While `starting`: when it began (ms since the epoch), retries after a slow start or a crash included. */
  startingSince?: number;
  /**
   * While `starting`: the person was sent to sign in at this host (OAuth). Readiness waits for such a server
   * without its grace: the person is at it, and the sign-in has its own limit.
   */
  signingIn?: string;
  /** While `starting`: the attempt under way (1 the first) and how long it is given to answer initialize. */
  attempt?: { number: number; limitMs: number };
  /** The server's process id while it runs. */
  pid?: number;
  /** Automatic restarts after crashes since the last manual start. */
  restarts?: number;
  /** How it is reached: a process's stdio, streamable HTTP, or HTTP+SSE (configured, or fallen back to). */
  transport?: 'stdio' | 'streamable-http' | 'sse';
  /** The protocol era it speaks while ready: `modern` (2026-07-28) or `legacy` (2025-11-25 and before). */
  era?: 'modern' | 'legacy';
  /** The protocol version agreed while ready, e.g. "2026-07-28" or "2025-06-18". */
  protocolVersion?: string;
  /** serverInfo from initialize: "name version". */
  serverVersion?: string;
  /** The server's `instructions` from initialize, for the system prompt. */
  instructions?: string;
  /** It takes task-augmented tools/call (MCP 2025-11-25), so its task-only tools can be called. */
  tasks?: boolean;
  /** For a server reached over HTTP: the host its requests go to (what a call to it sends data to). */
  endpoint?: string;
  /** Tools never offered to the model, by name, with why: their inputSchema is not valid JSON Schema. */
  invalidSchemas?: Record<string, string>;
}

/** A tool as the model sees it: `<server>__<tool>`. */
export interface HubTool {
  qualifiedName: string;
  server: string;
  tool: Tool;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** How long a call may stay silent: each progress notification starts it again. */
  timeoutMs?: number;
  /** How long the whole call may take, progress or not (the connection has a default when unset). */
  maxTotalTimeoutMs?: number;
  onProgress?: (progress: number, total: number | undefined, message: string | undefined) => void;
  /** Sent as the request's `_meta` (beside the progress token). */
  meta?: Record<string, unknown>;
}

export type { CallToolResult };
