import { DEFAULT_MODEL } from '../../src/core/agent/models';
import { resolve } from 'node:path';
import { agentHome, logsDir } from '../../src/core/chat/chat-home';

/** How the sub-agents' calls that would ask the person are decided when nobody can be asked. */
export type ApproveMode = 'ask' | 'read-only' | 'all';

/** What the orchestrator reads from its environment, once, at start. */
export interface OrchestratorConfig {
  apiKey: string | undefined;
  baseURL: string | undefined;
  /** MCP_AGENT_ORCHESTRATOR_APPROVE: unset asks (elicitation) or refuses; `all` runs every call without asking. */
  approve: ApproveMode;
  /** The model of an agent whose definition names none (or `inherit`). */
  defaultModel: string;
  /** Sessions that may run at once in this process. */
  maxParallel: number;
  /** Model calls in one sub-agent turn. */
  maxIterations: number;
  /** MCP_AGENT_ORCHESTRATOR_TRUST_WORKSPACE_SERVERS: an agent definition's own servers start without a question. */
  trustWorkspaceServers: boolean;
  /** MCP_AGENT_ORCHESTRATOR_ASK_SECONDS: how long a person has to answer a question, after which it counts as unanswered. */
  askTimeoutMs: number;
  /** MCP_AGENT_HOME or ~/.mcp-agent: the sessions are kept there, beside the person's chats. */
  home: string;
  query: QueryConfig;
}

/** The claude-agent seed's CLAUDE_* settings of the `query` tool. */
export interface QueryConfig {
  model: string;
  maxTokens: number;
  temperature: number | undefined;
  systemPrompt: string;
  conversations: boolean;
  maxHistory: number;
  /** Inactivity after which a query session is forgotten. */
  sessionTimeoutMs: number;
  log: LogConfig;
}

/** The seed's logging: a general log file in a folder by default, stderr instead on request, or none. */
export interface LogConfig {
  to: 'file' | 'stderr' | 'off';
  /** CLAUDE_LOG_DIR (relative to the folder the server runs in, as the seed reads it), else beside the sessions. */
  dir: string;
}

/** The seed's default system prompt for `query`, said truthfully: here `query` gives Claude no tools. */
const DEFAULT_QUERY_SYSTEM_PROMPT =
  'You are a helpful AI assistant. Another AI assistant or a person asks you through an MCP tool; answer the question ' +
  'directly and completely, in Markdown where it helps.';

export const KEY_HINT =
  'Set ANTHROPIC_API_KEY in the environment the MCP client starts this server with (the "env" of its entry in the ' +
  'client\'s config), e.g. "env": { "ANTHROPIC_API_KEY": "sk-ant-..." }; in VS Code run "MCP Agent: Set API Key". ' +
  'ANTHROPIC_BASE_URL may point at another endpoint.';

export function configFromEnv(env: NodeJS.ProcessEnv = process.env, workspace = process.cwd()): OrchestratorConfig {
  const model = env.CLAUDE_MODEL?.trim() || DEFAULT_MODEL;
  const home = agentHome(env);
  return {
    apiKey: env.ANTHROPIC_API_KEY?.trim() || undefined,
    baseURL: env.ANTHROPIC_BASE_URL?.trim() || undefined,
    approve: approveMode(env.MCP_AGENT_ORCHESTRATOR_APPROVE),
    defaultModel: model,
    maxParallel: wholeNumber(env.MCP_AGENT_ORCHESTRATOR_MAX_PARALLEL, 4, 1, 64),
    maxIterations: wholeNumber(env.MCP_AGENT_ORCHESTRATOR_MAX_ITERATIONS, 25, 1, 200),
    trustWorkspaceServers: flag(env.MCP_AGENT_ORCHESTRATOR_TRUST_WORKSPACE_SERVERS, false),
    // Ten minutes by default, fractions allowed so tests need not wait minutes; at most the 15 minutes a 2026-07-28
    // call's signed state stays good (modern-rounds.ts), or an answer given in time would come with a stale state.
    askTimeoutMs: Math.round(Math.min(positive(env.MCP_AGENT_ORCHESTRATOR_ASK_SECONDS, 600), 900) * 1000),
    home,
    query: {
      model,
      maxTokens: wholeNumber(env.CLAUDE_MAX_TOKENS, 8192, 1, 1_000_000),
      temperature: temperature(env.CLAUDE_TEMPERATURE),
      systemPrompt: env.CLAUDE_SYSTEM_PROMPT?.trim() || DEFAULT_QUERY_SYSTEM_PROMPT,
      conversations: flag(env.CLAUDE_ENABLE_CONVERSATIONS, true),
      maxHistory: wholeNumber(env.CLAUDE_MAX_HISTORY, 10, 1, 10_000),
      // Seconds, as in the seed (default an hour); fractions allowed so tests need not wait minutes.
      sessionTimeoutMs: Math.round(positive(env.CLAUDE_SESSION_TIMEOUT, 3600) * 1000),
      log: {
        to: flag(env.CLAUDE_DISABLE_LOGGING, false) ? 'off' : flag(env.CLAUDE_LOG_TO_STDERR, false) ? 'stderr' : 'file',
        dir: env.CLAUDE_LOG_DIR?.trim() ? resolve(env.CLAUDE_LOG_DIR.trim()) : logsDir(workspace, home),
      },
    },
  };
}

function approveMode(value: string | undefined): ApproveMode {
  const v = value?.trim().toLowerCase();
  return v === 'all' || v === 'read-only' ? v : 'ask';
}

function flag(value: string | undefined, fallback: boolean): boolean {
  const v = value?.trim().toLowerCase();
  if (v === undefined || v === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  return fallback;
}

function wholeNumber(value: string | undefined, fallback: number, min: number, max: number): number {
  const n = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isInteger(n)) return fallback;
  return Math.min(max, Math.max(min, n));
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value.trim() !== '' && Number.isFinite(n) && n > 0 ? n : fallback;
}

function temperature(value: string | undefined): number | undefined {
  const n = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isFinite(n)) return undefined;
  return Math.min(1, Math.max(0, n));
}
