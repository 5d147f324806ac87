import { randomUUID } from 'node:crypto';
import { approvedCall, resolveTool, type CallOutcome, type CallPath } from './approved-call';
import type { ApprovalStore } from './approval-policy';
import type { AskApproval, ToolHost } from '../agent/types';
import { TurnCheckpoint, type Checkpoint } from '../checkpoint/turn-checkpoint';
import type { ShadowGit } from '../checkpoint/shadow-git';
import { EgressGuard } from '../egress/egress-guard';
import type { CallOptions } from '../mcp/types';

/** What a front end gives the path for the person's commands. */
export interface CommandCallDeps {
  host: Pick<ToolHost, 'callTool' | 'tools' | 'findTool' | 'statuses'>;
  /** The workspace's "always allow" answers: an egress answer "always" is kept there, as in a chat. */
  approvals: ApprovalStore;
  /**
   * Asks the person what their command did not answer: data leaving for a place nobody named (egress-guard.ts).
   * Without it such a call is refused.
   */
  askEgress?: AskApproval;
  /** The workspace's snapshots; unset: no checkpoints. */
  checkpoints?: ShadowGit;
  workspaceDir?: string;
  /** Read for each call, so a changed setting applies to the next. */
  toolTimeoutMs?: () => number | undefined;
  log?: (message: string) => void;
}

export interface CommandCallRequest {
  /** The tool's qualified name (`<server>__<tool>`). */
  name: string;
  input: Record<string, unknown>;
  /** What the person typed for this command: a host it names is one they named. */
  personText?: readonly string[];
  signal?: AbortSignal;
  onProgress?: CallOptions['onProgress'];
  /**
   * Take a checkpoint before the call changes anything, and say what it changed. Only for a call whose undo the
   * caller keeps (a session's run): a checkpoint nobody can reach would only cost two snapshots.
   */
  checkpoint?: boolean;
}

export interface CommandOutcome {
  outcome: CallOutcome;
  /** The files the call changed and the snapshots around it, when it changed any. */
  checkpoint?: Checkpoint;
}

/**
 * A tool call the person asked for by a command (a tree view's action, not the model's wish): the approved-call path
 * with the command as the approval. The person is not asked again for the call they just asked for, but everything
 * else is the chat's: the egress guard (what leaves for a place they did not name still asks), the checkpoint before
 * the change, the call's timeouts, the sub-agent's labels handed down.
 */
export async function commandCall(deps: CommandCallDeps, request: CommandCallRequest): Promise<CommandOutcome> {
  const signal = request.signal ?? new AbortController().signal;
  const tool = resolveTool(deps.host, request.name);
  if (!tool) return { outcome: { ok: false, why: `${request.name} is not available: its server is not ready.`, durationMs: 0 } };
  const checkpoint = request.checkpoint && deps.checkpoints ? new TurnCheckpoint(deps.checkpoints, (m) => deps.log?.(m)) : undefined;
  const personText = request.personText ?? [];
  const path: CallPath = {
    host: deps.host,
    approvals: deps.approvals,
    askApproval: (asked, s) => (asked.egress ? (deps.askEgress?.(asked, s) ?? Promise.resolve('deny')) : Promise.resolve('once')),
    egress: new EgressGuard({ personText: () => personText, store: deps.approvals, servers: () => deps.host.statuses?.() ?? [] }),
    workspaceDir: deps.workspaceDir,
    beforeChange: checkpoint ? () => checkpoint.begin() : undefined,
    toolTimeoutMs: deps.toolTimeoutMs?.(),
  };
  const outcome = await approvedCall(path, { callId: `command-${randomUUID()}`, tool, input: request.input, signal, onProgress: request.onProgress });
  const changed = await checkpoint?.end();
  return { outcome, ...(changed ? { checkpoint: changed } : {}) };
}
