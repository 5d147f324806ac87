import Anthropic from '@anthropic-ai/sdk';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalDecision } from '../../src/shared/protocol';
import { ToolError, type ToolExtra } from '../lib/results';
import { loadAgents } from './agent-definitions';
import type { Elicit } from './approvals';
import { configFromEnv, KEY_HINT, type OrchestratorConfig } from './config';
import { registerQueryTool } from './query-tool';
import { SessionResources } from './session-resources';
import { SessionRunner } from './session-runner';
import { SessionStore } from './session-store';
import { registerSessionTools } from './session-tools';
import { SubServers } from './sub-servers';

/** How long a person has to answer an approval question. */
const ASK_TIMEOUT_MS = 10 * 60_000;
/** How long exit waits for running turns to save their state as interrupted. */
const STOP_GRACE_MS = 5_000;

export interface Orchestrator {
  server: McpServer;
  dispose: () => Promise<void>;
}

/**
 * The orchestrator: named sub-agent sessions (start, resume, list, clean) on our own agent loop,
 * with the other bundled servers as their tools, and the claude-agent seed's `query` tool.
 */
export function buildOrchestrator(workspace: string, config: OrchestratorConfig = configFromEnv(), servers = new SubServers(workspace)): Orchestrator {
  const server = new McpServer(
    { name: 'orchestrator', title: 'MCP Agent orchestrator', version: '0.1.0' },
    {
      instructions:
        'Runs sub-agents in named sessions: list_agents, then start_agent with a session name and a task; resume_agent ' +
        'continues a session. query asks Claude directly, with optional conversation sessions.',
    },
  );
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const client = config.apiKey ? new Anthropic({ apiKey: config.apiKey, baseURL: config.baseURL }) : undefined;
  const requireKey = (): void => {
    if (!client) throw new ToolError(`The orchestrator needs an Anthropic API key to run agents. ${KEY_HINT}`);
  };
  const store = new SessionStore(workspace);
  const resources = new SessionResources(server, store);
  const agents = () => loadAgents(workspace);
  const changed = (name: string, listChanged?: boolean): void => resources.changed(name, listChanged);
  const runner = new SessionRunner({
    workspace,
    store,
    servers,
    config,
    // Without a key no run starts (requireKey), so this client is never used.
    client: client ?? new Anthropic({ apiKey: 'unset' }),
    agents,
    elicit: (extra) => elicitFor(server, extra),
    changed,
  });
  const recovered = runner.recover().catch((err: unknown) => log(`orchestrator: could not check the sessions: ${(err as Error).message}`));
  registerSessionTools(server, { store, runner, agents, requireKey, recovered, changed });
  const queries = registerQueryTool(server, config.query, () => client, log);

  let disposing: Promise<void> | undefined;
  const dispose = (): Promise<void> =>
    (disposing ??= (async () => {
      await Promise.race([runner.dispose(), new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
      queries.dispose();
      resources.dispose();
      await servers.dispose();
    })());
  return { server, dispose };
}

/** Asks the person through the client's form elicitation, tied to the tool call being served. */
function elicitFor(server: McpServer, extra: ToolExtra): Elicit | undefined {
  if (!server.server.getClientCapabilities()?.elicitation) return undefined;
  const requestId = (extra as unknown as RequestHandlerExtra<ServerRequest, ServerNotification>).requestId;
  return async (message, allowAlways, signal): Promise<ApprovalDecision> => {
    const choices = allowAlways ? ['once', 'always', 'deny'] : ['once', 'deny'];
    const result = await server.server.elicitInput(
      {
        mode: 'form',
        message,
        requestedSchema: {
          type: 'object',
          properties: {
            decision: {
              type: 'string',
              title: 'Allow this call?',
              description: allowAlways ? 'once: this call; always: this tool for the rest of the session; deny: refuse it' : 'once: this call; deny: refuse it',
              enum: choices,
            },
          },
          required: ['decision'],
        },
      },
      { signal, relatedRequestId: requestId, timeout: ASK_TIMEOUT_MS },
    );
    const decision = result.action === 'accept' ? result.content?.decision : undefined;
    return decision === 'once' || (decision === 'always' && allowAlways) ? decision : 'deny';
  };
}
