import { LABELS_META } from '../../src/core/egress/labels';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { guarded, textResult, ToolError, type ToolExtra } from '../lib/results';
import type { AgentCatalog } from './agent-definitions';
import type { AskChoice } from './client-question';
import { agentsJson, agentsMarkdown, runJson, runMarkdown, sessionJson, sessionsMarkdown } from './session-format';
import type { RunResult, SessionRunner } from './session-runner';
import { SESSION_NAME, type SessionRecord, type SessionStore } from './session-store';
import { MAX_SECONDS } from '../../src/node/long-running';

/** A sub-agent's turn may take this long in all (it reports progress all along): a host's shorter cap would cut it off. */
const SUB_AGENT_TURN_SECONDS = 30 * 60;
import { transcriptMarkdown } from './transcript-markdown';

export interface SessionToolDeps {
  store: SessionStore;
  /** The runner, loaded on first use (it brings the agent loop and the Anthropic SDK). */
  runner: () => Promise<SessionRunner>;
  /** True while a turn of the session runs in this process. */
  isRunning: (name: string) => boolean;
  agents: () => Promise<AgentCatalog>;
  /** Throws a ToolError saying how to set the key when there is none. */
  requireKey: () => void;
  /** Resolves once sessions a killed process left `running` are marked interrupted. */
  recovered: Promise<void>;
  changed: (name: string, listChanged?: boolean) => void;
  /** How to ask the person through the client that sent this request, when it can. */
  ask: (extra: ToolExtra) => AskChoice | undefined;
}

const responseFormat = z.enum(['markdown', 'json']).optional().describe('markdown (default) or json');
const sessionName = z.string().max(200).describe('The session: 1-60 letters, digits, "_" or "-"');
const DAY_MS = 24 * 60 * 60 * 1000;

function answer(format: 'markdown' | 'json' | undefined, markdown: string, json: Record<string, unknown>): CallToolResult {
  return format === 'json' ? textResult(JSON.stringify(json, null, 2), json) : textResult(markdown, json);
}

function runAnswer(format: 'markdown' | 'json' | undefined, result: RunResult): CallToolResult {
  // The labels of what the sub-agent read go up with its reply: the calling chat holds them from now on.
  const out = { ...answer(format, runMarkdown(result), runJson(result)), _meta: { [LABELS_META]: result.labels } };
  return result.record.status === 'error' ? { ...out, isError: true } : out;
}

/** list_agents, start_agent, resume_agent, list_sessions, get_session and clean_sessions. */
export function registerSessionTools(server: McpServer, deps: SessionToolDeps): void {
  const { store } = deps;
  const ready = async (): Promise<void> => {
    deps.requireKey();
    await deps.recovered;
  };

  server.registerTool(
    'list_agents',
    {
      title: 'List agents',
      description:
        'Lists the agents a session can run: the built-in "general" agent and the definitions in .mcp-agent/agents/*.md and ' +
        '.claude/agents/*.md (name, description, tools, model), plus every definition file that is broken and why.',
      inputSchema: { response_format: responseFormat },
      annotations: { title: 'List agents', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    // Listing runs no agent: it needs no key.
    guarded('list_agents', async ({ response_format }) => {
      const catalog = await deps.agents();
      return answer(response_format, agentsMarkdown(catalog), agentsJson(catalog));
    }),
  );

  server.registerTool(
    'start_agent',
    {
      title: 'Start an agent session',
      description:
        'Starts a named session of a sub-agent on a task and returns its reply once the turn ends. The sub-agent works in ' +
        'this workspace with the workspace, web and research tools its definition allows; calls that change something ' +
        'are asked through the client (elicitation) or refused with how to allow them. The session is saved outside the ' +
        "workspace, beside the person's chats (MCP_AGENT_HOME); resume_agent continues it.",
      inputSchema: {
        session_name: sessionName,
        agent_name: z.string().max(200).optional().describe('An agent from list_agents (default: general)'),
        prompt: z.string().min(1).max(200_000).describe('The task for the sub-agent'),
        response_format: responseFormat,
      },
      annotations: { title: 'Start an agent session', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      _meta: { [MAX_SECONDS]: SUB_AGENT_TURN_SECONDS },
    },
    guarded('start_agent', async ({ session_name, agent_name, prompt, response_format }, extra) => {
      await ready();
      return runAnswer(response_format, await (await deps.runner()).start(session_name, agent_name, prompt, extra as ToolExtra, deps.ask(extra as ToolExtra)));
    }),
  );

  server.registerTool(
    'resume_agent',
    {
      title: 'Resume an agent session',
      description:
        'Continues a session with a new prompt; the sub-agent sees the whole conversation so far. Works for sessions that ' +
        'are done, failed, or were interrupted (cancelled, or the server stopped mid-turn). A session already running is refused.',
      inputSchema: {
        session_name: sessionName,
        prompt: z.string().min(1).max(200_000).describe('What the sub-agent should do next (e.g. "continue")'),
        response_format: responseFormat,
      },
      annotations: { title: 'Resume an agent session', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      _meta: { [MAX_SECONDS]: SUB_AGENT_TURN_SECONDS },
    },
    guarded('resume_agent', async ({ session_name, prompt, response_format }, extra) => {
      await ready();
      return runAnswer(response_format, await (await deps.runner()).resume(session_name, prompt, extra as ToolExtra, deps.ask(extra as ToolExtra)));
    }),
  );

  server.registerTool(
    'list_sessions',
    {
      title: 'List agent sessions',
      description: 'Lists the sessions with their agent, status (running, done, error, interrupted), turns, tokens and last activity.',
      inputSchema: { response_format: responseFormat },
      annotations: { title: 'List agent sessions', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    guarded('list_sessions', async ({ response_format }) => {
      await ready();
      const records = await store.list();
      return answer(response_format, sessionsMarkdown(records), { sessions: records.map(sessionJson) });
    }),
  );

  server.registerTool(
    'get_session',
    {
      title: 'Get a session transcript',
      description: "Returns a session's summary and its whole transcript: prompts, the sub-agent's replies, tool calls and results.",
      inputSchema: { session_name: sessionName, response_format: responseFormat },
      annotations: { title: 'Get a session transcript', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    guarded('get_session', async ({ session_name, response_format }) => {
      await ready();
      const record = await store.read(session_name);
      if (!record) throw new ToolError(`There is no session named "${session_name.slice(0, 80)}". list_sessions shows the sessions.`);
      const messages = await (await store.log(session_name)).load();
      return answer(response_format, transcriptMarkdown(record, messages), { session: sessionJson(record), messages });
    }),
  );

  server.registerTool(
    'clean_sessions',
    {
      title: 'Delete agent sessions',
      description:
        'Deletes saved sessions (their folders beside the chats): all of them, those idle for more than ' +
        'older_than_days, or the one named. Running sessions are never deleted. confirm must be true.',
      inputSchema: {
        confirm: z.literal(true).describe('Must be true: deleting cannot be undone'),
        older_than_days: z.number().min(0).max(36_500).optional().describe('Only sessions whose last activity is older than this many days'),
        session_name: sessionName.optional().describe('Only this session'),
        response_format: responseFormat,
      },
      annotations: { title: 'Delete agent sessions', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    guarded('clean_sessions', async ({ older_than_days, session_name, response_format }) => {
      await ready();
      if (session_name !== undefined && !SESSION_NAME.test(session_name)) throw new ToolError(`"${session_name.slice(0, 80)}" is not a session name.`);
      const cutoff = older_than_days === undefined ? undefined : Date.now() - older_than_days * DAY_MS;
      const chosen = (await store.list()).filter(
        (r) => (session_name === undefined || r.name === session_name) && (cutoff === undefined || Date.parse(r.lastActivity) < cutoff),
      );
      if (session_name !== undefined && chosen.length === 0) {
        throw new ToolError(`There is no session named "${session_name}"${cutoff !== undefined ? ` idle for more than ${older_than_days} days` : ''}.`);
      }
      const busy = chosen.filter((r) => deps.isRunning(r.name) || r.status === 'running');
      const gone: SessionRecord[] = [];
      for (const r of chosen.filter((c) => !busy.includes(c))) {
        await store.remove(r.name);
        gone.push(r);
        deps.changed(r.name, true);
      }
      const lines = [gone.length ? `Deleted ${gone.length} session(s): ${gone.map((r) => r.name).join(', ')}.` : 'Deleted no session.'];
      if (busy.length) lines.push(`Kept ${busy.length} running session(s): ${busy.map((r) => r.name).join(', ')}; clean them once they end.`);
      return answer(response_format, lines.join(' '), { deleted: gone.map((r) => r.name), kept_running: busy.map((r) => r.name) });
    }),
  );
}
