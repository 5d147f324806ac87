import type { ServerDefinition } from '../../src/core/mcp/config/definition';
import { consentDetails, launchLine } from '../../src/core/mcp/config/definition-summary';
import type { AgentDefinition } from './agent-definitions';
import type { AskChoice } from './client-question';
import type { ApproveMode } from './config';

const START = 'start them';
const DONT = 'do not start them';

export interface ConsentOutcome {
  /** The definition's servers the person agreed to (all or none). */
  start: ServerDefinition[];
  /** Why the others were not started, said to the caller with what would start them. */
  note?: string;
}

/**
 * The consent a workspace's `.vscode/mcp.json` servers get, for an agent definition's own servers: a
 * definition is the workspace's file, so what it would run is shown to the person (each command line or
 * URL, the names of what it is given, every value taken from their environment and where it goes) and
 * starts only after a yes. Asked through the client's elicitation; refused when nobody can be asked,
 * saying why. One answer per definition's exact servers for the life of the process.
 */
export class ServerConsent {
  private readonly answers = new Map<string, 'trusted' | 'declined'>();

  constructor(
    /** MCP_AGENT_ORCHESTRATOR_TRUST_WORKSPACE_SERVERS, set where the person starts the orchestrator (as the CLI's --trust-workspace-servers). */
    private readonly trustAll: boolean,
    private readonly mode: ApproveMode,
  ) {}

  async decide(agent: AgentDefinition, ask: AskChoice | undefined, signal: AbortSignal): Promise<ConsentOutcome> {
    const servers = agent.servers;
    if (servers.length === 0 || this.trustAll) return { start: servers };
    const key = fingerprint(agent);
    let answer = this.answers.get(key);
    if (!answer) {
      if (this.mode === 'read-only') return refused(agent, `MCP_AGENT_ORCHESTRATOR_APPROVE=read-only starts nothing a workspace defines. ${HOW}`);
      if (!ask) return refused(agent, `this MCP client cannot be asked (it does not declare the elicitation capability). ${HOW}`);
      const choice = await ask(
        {
          message: question(agent),
          title: 'Start these servers?',
          description: `${START}: they run as you, for this agent; ${DONT}: the agent goes on without them`,
          choices: [START, DONT],
        },
        signal,
      ).catch(() => undefined);
      // The call was cancelled, or ended to ask its client first (2026-07-28): nothing goes on without the answer.
      if (signal.aborted) throw signal.reason;
      if (choice === undefined) return refused(agent, `the question was not answered. ${HOW}`);
      answer = choice === START ? 'trusted' : 'declined';
      this.answers.set(key, answer);
    }
    if (answer === 'declined') return refused(agent, `you chose not to start them (asked again once the orchestrator restarts). ${HOW}`);
    return { start: servers };
  }
}

const HOW = 'To start them without a question, set MCP_AGENT_ORCHESTRATOR_TRUST_WORKSPACE_SERVERS=1 where the orchestrator is started.';

function refused(agent: AgentDefinition, why: string): ConsentOutcome {
  return { start: [], note: `The servers ${agent.servers.map((s) => s.name).join(', ')} that ${agent.source} defines were not started: ${why}` };
}

function question(agent: AgentDefinition): string {
  const lines = [
    `The agent "${agent.name}" (${agent.source}, a file of this workspace) defines MCP servers of its own. Each runs as you, with your ` +
      'files and network: start them only if you trust this workspace.',
  ];
  for (const d of agent.servers) lines.push('', `${d.name}: ${launchLine(d)}`, ...consentDetails(d).map((l) => `  ${l}`));
  return lines.join('\n');
}

function fingerprint(agent: AgentDefinition): string {
  return `${agent.source}\0${agent.servers.map((s) => s.fingerprint).join('\0')}`;
}
