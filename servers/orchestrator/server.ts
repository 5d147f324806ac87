import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ToolExtra } from '../lib/results';
import type { AskChoice } from './client-question';
import { logToolCalls } from './logged-tools';
import type { OrchestratorCore } from './orchestrator';
import { registerQueryTool } from './query-tool';
import { SessionResources } from './session-resources';
import { registerSessionTools } from './session-tools';

/**
 * One client's MCP server on the shared orchestrator core: named sub-agent sessions (start, resume,
 * list, clean) on our own agent loop with the other bundled servers as their tools, the claude-agent
 * seed's `query` tool, and the sessions as resources this client can subscribe to.
 */
export function buildOrchestratorServer(core: OrchestratorCore): McpServer {
  const server = new McpServer(
    { name: 'orchestrator', title: 'MCP Agent orchestrator', version: '0.1.0' },
    {
      instructions:
        'Runs sub-agents in named sessions: list_agents, then start_agent with a session name and a task; resume_agent ' +
        'continues a session. query asks Claude directly, with optional conversation sessions.',
    },
  );
  logToolCalls(server, core.generalLog);
  const resources = new SessionResources(server, core.store);
  const stopListening = core.onChanged((name, listChanged) => resources.changed(name, listChanged));
  server.server.onclose = () => {
    stopListening();
    resources.dispose();
  };
  registerSessionTools(server, {
    store: core.store,
    runner: core.runner,
    isRunning: core.isRunning,
    agents: core.agents,
    requireKey: core.requireKey,
    recovered: core.recovered,
    changed: core.changed,
    ask: (extra) => askFor(server, extra, core.config.askTimeoutMs),
  });
  registerQueryTool(server, core.config.query, core.queries, core.client, core.generalLog);
  return server;
}

/**
 * Asks the person through the client's form elicitation, tied to the tool call being served; `timeoutMs` is how long
 * they have to answer (an approval, or servers to start), which in 2026-07-28 is how long a held call waits.
 */
function askFor(server: McpServer, extra: ToolExtra, timeoutMs: number): AskChoice | undefined {
  if (!server.server.getClientCapabilities()?.elicitation) return undefined;
  const requestId = (extra as unknown as RequestHandlerExtra<ServerRequest, ServerNotification>).requestId;
  return async ({ message, title, description, choices }, signal) => {
    const result = await server.server.elicitInput(
      {
        mode: 'form',
        message,
        requestedSchema: {
          type: 'object',
          properties: { decision: { type: 'string', title, description, enum: choices } },
          required: ['decision'],
        },
      },
      { signal, relatedRequestId: requestId, timeout: timeoutMs },
    );
    const decision = result.action === 'accept' ? result.content?.decision : undefined;
    return typeof decision === 'string' && choices.includes(decision) ? decision : undefined;
  };
}
