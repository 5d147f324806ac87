import type { ProposedEdit } from '../tool-call/proposed-edit';
import type { ApprovalDecision, ChatEvent, TurnActivity } from '../../common/protocol';
import type { CallOptions, CallToolResult, HubTool, ServerStatus } from '../mcp/types';
import type { ApprovalPrompt } from '../tool-call/approval-policy';
import type { EgressQuestion } from '../egress/egress-guard';

/** What the agent needs of the MCP host; McpHub provides it. */
export interface ToolHost {
  /** Every tool the model may use, however many: which of them a request carries in full is the agent's choice (tool-offer/). */
  tools(): HubTool[];
  /** One of tools() by its qualified name; without it, tools() is searched. */
  findTool?(qualifiedName: string): HubTool | undefined;
  /** Whether the person pinned this tool: its definition then goes with every request. */
  pinned?(tool: HubTool): boolean;
  /** Calls a tool: by name, or the tool findTool() gave (then it is not looked up again). */
  callTool(tool: string | HubTool, args: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult>;
  /** Servers' states; their `instructions` (from initialize) go into the system prompt. */
  statuses?(): ServerStatus[];
  /** Resolves once servers still starting are up (or failed), a bounded wait, or `signal` aborts. */
  ready?(signal: AbortSignal): Promise<void>;
}

/** Everything a turn reports, in order: chat events (persisted) and streaming deltas (not). */
export type AgentOutput =
  | { type: 'event'; event: ChatEvent }
  | { type: 'delta'; turnId: string; blockId: string; text: string }
  | { type: 'progress'; callId: string; progress: number; total?: number; message?: string }
  /** What the turn waits for while nothing else shows it (a request, its retries, thinking, a call being written). */
  | { type: 'activity'; turnId: string; activity: TurnActivity };

export interface ApprovalRequest extends ApprovalPrompt {
  callId: string;
  tool: HubTool;
  input: Record<string, unknown>;
  /** For a file write or edit: the change itself, for a front end to show as a diff. */
  edit?: ProposedEdit;
  /** Set when the call would send data out of the machine where nobody vouched for it (egress-guard.ts). */
  egress?: EgressQuestion;
  /** Asked for by an MCP App's view, not by the model. */
  fromApp?: boolean;
}

/** The front end's way of asking the person; resolves with their decision (or 'deny' when the turn is cancelled). */
export type AskApproval = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision>;

export type TurnStatus = 'done' | 'stopped' | 'error' | 'max_iterations' | 'max_tokens';
