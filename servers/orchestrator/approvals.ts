import type { ApprovalStore } from '../../src/core/tool-call/approval-policy';
import { isHostKey } from '../../src/core/egress/egress-guard';
import type { ApprovalRequest, AskApproval } from '../../src/core/agent/types';
import type { ApprovalDecision } from '../../src/common/protocol';
import type { AgentDefinition } from './agent-definitions';
import type { AskChoice } from './client-question';
import type { ApproveMode } from './config';

/** A call nobody approved: said to the caller with how to allow it. */
export interface Refusal {
  tool: string;
  reason: string;
  why: string;
}

/** How to ask the person, when the MCP client can: its elicitation, tied to the tool call being served. */
export type Elicit = (message: string, allowAlways: boolean, signal: AbortSignal) => Promise<ApprovalDecision>;

/** An approval as one choice: once, always (for the rest of the session, where allowed) or deny. */
export function approvalQuestion(ask: AskChoice): Elicit {
  return async (message, allowAlways, signal) => {
    const choices = allowAlways ? ['once', 'always', 'deny'] : ['once', 'deny'];
    const description = allowAlways ? 'once: this call; always: this tool for the rest of the session; deny: refuse it' : 'once: this call; deny: refuse it';
    const decision = await ask({ message, title: 'Allow this call?', description, choices }, signal);
    return decision === 'once' || decision === 'always' ? decision : 'deny';
  };
}

/**
 * What a sub-agent may do without asking: what the person allowed, and nothing else. That is every call
 * with MCP_AGENT_ORCHESTRATOR_APPROVE=all (set where the person starts the server) and what they answered
 * "always" for this session. The agent definition has no say: it is the workspace's file, and the
 * workspace is untrusted. Writes to sensitive files never pass here (approval-policy asks for them
 * whatever this says).
 */
export function sessionApprovals(mode: ApproveMode, always: Set<string>): ApprovalStore {
  return {
    // APPROVE=all approves tool calls, not data leaving for a host nobody named (egress-guard.ts), as the CLI's --yes.
    has: (key) => (mode === 'all' && !isHostKey(key)) || always.has(key),
    add: (key) => void always.add(key),
  };
}

/** Why nobody can be asked when there is no elicit: the client does not declare elicitation. */
const NO_ELICITATION = 'this MCP client cannot be asked (it does not declare the elicitation capability)';

/**
 * Asks through elicitation when the client offers it and the mode allows asking; otherwise refuses,
 * noting each refusal with what would allow it.
 */
export function approvalAsker(definition: AgentDefinition, mode: ApproveMode, elicit: Elicit | undefined, refusals: Refusal[]): AskApproval {
  return async (request, signal) => {
    const sensitive = request.alwaysKind === 'none';
    if (elicit && mode !== 'read-only') {
      try {
        return await elicit(questionOf(definition, request), !sensitive, signal);
      } catch (err) {
        refusals.push(refusal(request, `asking failed (${(err as Error).message}); refused`));
        return 'deny';
      }
    }
    refusals.push(refusal(request, request.egress ? egressWhy(request.egress.why, elicit) : sensitive ? sensitiveWhy(elicit, mode) : howToAllow(elicit, mode)));
    return 'deny';
  };
}

function questionOf(definition: AgentDefinition, request: ApprovalRequest): string {
  const lines = [`Sub-agent "${definition.name}" asks: ${request.reason} (${request.tool.qualifiedName}).`];
  for (const w of request.warnings) lines.push(`Warning: ${w}`);
  for (const n of request.notes) lines.push(n);
  if (request.preview) lines.push('', request.preview);
  return lines.join('\n');
}

function refusal(request: ApprovalRequest, why: string): Refusal {
  return { tool: request.tool.qualifiedName, reason: request.reason, why };
}

function egressWhy(why: string, elicit: Elicit | undefined): string {
  const how = elicit ? 'MCP_AGENT_ORCHESTRATOR_APPROVE=read-only stops the orchestrator from asking' : NO_ELICITATION;
  return `${why} Sending data out needs a person's answer (MCP_AGENT_ORCHESTRATOR_APPROVE=all does not give it), and ${how}`;
}

function sensitiveWhy(elicit: Elicit | undefined, mode: ApproveMode): string {
  const how = elicit ? 'MCP_AGENT_ORCHESTRATOR_APPROVE=read-only stops the orchestrator from asking' : NO_ELICITATION;
  return `it writes a file that makes an editor, git or an MCP host run commands, which always needs a person's approval, and ${how}${mode === 'all' ? ' (APPROVE=all does not cover these files)' : ''}`;
}

function howToAllow(elicit: Elicit | undefined, mode: ApproveMode): string {
  const nobody = elicit
    ? 'MCP_AGENT_ORCHESTRATOR_APPROVE=read-only refuses calls that change something'
    : 'nobody could be asked: this MCP client does not declare the elicitation capability';
  const how =
    mode === 'read-only'
      ? 'unset MCP_AGENT_ORCHESTRATOR_APPROVE (to be asked) or set it to all'
      : 'use an MCP client that can ask you (elicitation), or start the orchestrator with MCP_AGENT_ORCHESTRATOR_APPROVE=all';
  return `${nobody}. To allow it, ${how}`;
}
