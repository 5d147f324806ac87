import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalDecision } from '../../src/shared/protocol';
import { ToolError, type ToolExtra } from '../lib/results';
import type { AgentCatalog } from './agent-definitions';
import { lazyClient } from './anthropic-client';
import type { Elicit } from './approvals';
import { configFromEnv, KEY_HINT, type OrchestratorConfig } from './config';
import { registerQueryTool } from './query-tool';
import { recoverSessions } from './session-recovery';
import { SessionResources } from './session-resources';
import type { SessionRunner } from './session-runner';
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
 * The agent loop, the Anthropic SDK and the YAML parser load on first use, so the server is ready
 * about as soon as the others are.
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
  const client = lazyClient(config);
  const requireKey = (): void => {
    if (!config.apiKey) throw new ToolError(`The orchestrator needs an Anthropic API key to run agents. ${KEY_HINT}`);
  };
  const store = new SessionStore(workspace);
  const resources = new SessionResources(server, store);
  const agents = async (): Promise<AgentCatalog> => (await import('./agent-definitions')).loadAgents(workspace);
  const changed = (name: string, listChanged?: boolean): void => resources.changed(name, listChanged);

  let runner: SessionRunner | undefined;
  let loading: Promise<SessionRunner> | undefined;
  const getRunner = (): Promise<SessionRunner> =>
    (loading ??= (async () => {
      const [{ SessionRunner: Runner }, anthropic] = await Promise.all([import('./session-runner'), client()]);
      if (!anthropic) throw new ToolError(`The orchestrator needs an Anthropic API key to run agents. ${KEY_HINT}`);
      runner = new Runner({ workspace, store, servers, config, client: anthropic, agents, elicit: (extra) => elicitFor(server, extra), changed });
      return runner;
    })());

  const recovered = recoverSessions(store, changed).catch((err: unknown) => log(`orchestrator: could not check the sessions: ${(err as Error).message}`));
  registerSessionTools(server, {
    store,
    runner: getRunner,
    isRunning: (name) => runner?.isRunning(name) ?? false,
    agents,
    requireKey,
    recovered,
    changed,
  });
  const queries = registerQueryTool(server, config.query, client, log);

  let disposing: Promise<void> | undefined;
  const dispose = (): Promise<void> =>
    (disposing ??= (async () => {
      if (runner) await Promise.race([runner.dispose(), new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
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
