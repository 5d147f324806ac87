import { approvalKey, approvalNeed, changeApproval, previewOf, type ApprovalNeed, type ApprovalPrompt, type ApprovalStore } from './approval-policy';
import { proposeEdit, type ProposedEdit } from './proposed-edit';
import { readOnlyTool, totalTimeout, withEdit } from './tool-call-rules';
import type { AskApproval, ToolHost } from '../agent/types';
import type { EgressGuard, EgressQuestion } from '../egress/egress-guard';
import { LABELS_META } from '../egress/labels';
import type { CallToolResult, HubTool } from '../mcp/types';
import { EXPECT_BASE } from '../../node/reviewed-edit';
import { READ_ONLY_CALL, WOULD_WRITE } from '../../node/sql-read-only';
import { messageOf } from '../../node/error-message';

/**
 * The one path every tool call takes, whoever asks for it (the model, a sub-agent, an MCP App's view, a tree view's command):
 * decide approval and egress, show a file change as the change it makes, snapshot before a change,
 * call, and for SQL that turned out to write, ask and call again. It takes the resolved tool: the caller
 * looks a name up once, by resolveTool() (the agent as the call streams in, a view's on its own server),
 * and the tool itself goes down to the server, never its name. What comes back is converted and capped
 * by the round (agent/tool-round.ts); a view gets the result as the server sent it.
 * A person's command (the Sessions view's start, resume, delete) comes here through command-call.ts: the command
 * is its approval, the rest is the same, and a run's checkpoint is kept with its session rather than in a chat.
 */
export interface CallPath {
  host: Pick<ToolHost, 'callTool'>;
  approvals: ApprovalStore;
  askApproval: AskApproval;
  egress: EgressGuard;
  /** The workspace folder: file writes are shown as the change they make, and refused if the file changed after review. */
  workspaceDir?: string;
  /** Called before the first call that may change something (a checkpoint of the workspace). */
  beforeChange?: () => Promise<void>;
  toolTimeoutMs?: number;
}

export interface CallRequest {
  callId: string;
  tool: HubTool;
  input: Record<string, unknown>;
  signal: AbortSignal;
  onProgress?: (progress: number, total?: number, message?: string) => void;
  /** An MCP App's view asks for this call (the card says so); the path is the same. */
  fromApp?: boolean;
  /** Calls that run together ask one at a time, in the model's order (tool-round.ts). */
  questions?: QuestionTurn;
}

/** This call asks once `before` settles (the calls before it were answered); `passed()` says it was answered or needs no answer. */
export interface QuestionTurn {
  before: Promise<void>;
  passed: () => void;
}

/** `durationMs` is the call's own time: never the person's thinking time, nor a snapshot's. */
export type CallOutcome = { ok: true; result: CallToolResult; durationMs: number } | { ok: false; why: string; durationMs: number };

const CANCELLED = 'Cancelled: the person stopped the turn.';
const DENIED = 'The person denied this tool call. Do not retry it; ask them what they want instead.';

/** The tool a name stands for, among every tool of every ready server (never a capped list). */
export function resolveTool(host: Pick<ToolHost, 'tools' | 'findTool'>, qualifiedName: string): HubTool | undefined {
  return host.findTool ? host.findTool(qualifiedName) : host.tools().find((t) => t.qualifiedName === qualifiedName);
}

export async function approvedCall(path: CallPath, request: CallRequest): Promise<CallOutcome> {
  const { tool, input, signal } = request;
  let started = Date.now();
  const fail = (why: string): CallOutcome => ({ ok: false, why, durationMs: Date.now() - started });
  if (signal.aborted) return fail(CANCELLED);
  const need = approvalNeed(tool, input, path.approvals);
  const egress = path.egress.check(tool, input);
  let gate: Gate;
  let edit: ProposedEdit | undefined;
  try {
    edit = need.ask && path.workspaceDir ? await proposeEdit(path.workspaceDir, tool, input) : undefined;
    const question = withEgress(tool, input, edit ? withEdit(need, edit) : need, egress);
    if (question.ask) await request.questions?.before;
    // The turn may have been stopped while an earlier call's question was open.
    gate = signal.aborted ? { ok: false, why: CANCELLED } : await ask(path, request, question, edit);
  } finally {
    request.questions?.passed();
  }
  // Either way the duration is the call's, not the person's thinking time (a denial's is none).
  if (!gate.ok || gate.asked) started = Date.now();
  if (!gate.ok) return fail(gate.why);
  // A sub-agent starts with this chat's labels: its secrets hold there too (labels.ts).
  const handDown = tool.server === SUBAGENT_SERVER ? { [LABELS_META]: path.egress.handDown() } : undefined;
  const call = (meta?: Record<string, unknown>): Promise<CallToolResult> =>
    path.host.callTool(tool, input, {
      signal,
      timeoutMs: path.toolTimeoutMs,
      // progress notifications reset timeoutMs; the setting bounds the whole call, unless the tool says its work is long
      maxTotalTimeoutMs: totalTimeout(tool, path.toolTimeoutMs),
      onProgress: request.onProgress,
      meta: meta || handDown ? { ...handDown, ...meta } : undefined,
    });
  try {
    const firstTry = !need.ask && need.readOnlyCall === true;
    if (!firstTry && !readOnlyTool(tool) && path.beforeChange) {
      await path.beforeChange();
      started = Date.now(); // the snapshot is not the call's time
    }
    // A reviewed change is made only to the file the person saw.
    let result = await call(firstTry ? { [READ_ONLY_CALL]: true } : edit ? { [EXPECT_BASE]: edit.base } : undefined);
    if (firstTry && result._meta?.[WOULD_WRITE] === true && !signal.aborted) {
      // SQLite itself found that the statement writes (nothing was changed): now it asks like any change.
      gate = await ask(path, request, withEgress(tool, input, changeApproval(tool, input, path.approvals), egress));
      started = Date.now();
      if (!gate.ok) return fail(gate.why);
      await path.beforeChange?.();
      started = Date.now();
      result = await call();
    }
    if (signal.aborted) return fail(CANCELLED);
    // What came back enters the chat: labelled by where it came from, whoever asked for the call.
    path.egress.observe(tool, input, resultText(result), result.isError === true, result);
    return { ok: true, result, durationMs: Date.now() - started };
  } catch (err) {
    if (signal.aborted) return fail(CANCELLED);
    const why = `${tool.qualifiedName} failed: ${messageOf(err)}`;
    path.egress.observe(tool, input, why, true);
    return fail(why);
  }
}

/** The bundled server whose tools run sub-agents. */
const SUBAGENT_SERVER = 'orchestrator';

/** The text of a result as the model reads it (binary parts carry no text to label). */
function resultText(result: CallToolResult): string {
  const texts = (result.content ?? []).flatMap((c) =>
    c.type === 'text' ? [c.text] : c.type === 'resource' && 'text' in c.resource && typeof c.resource.text === 'string' ? [c.resource.text] : [],
  );
  if (result.structuredContent && texts.length === 0) texts.push(JSON.stringify(result.structuredContent));
  return texts.join('\n');
}

/** One question for both: the tool's approval (when it needs one) carries the egress warning; else the egress question stands alone. */
function withEgress(
  tool: HubTool,
  input: Record<string, unknown>,
  need: ApprovalNeed,
  egress: EgressQuestion | undefined,
): ApprovalNeed & { egress?: EgressQuestion } {
  if (!egress) return need;
  if (need.ask) return { ...need, warnings: [...need.warnings, egress.why], egress };
  const prompt: ApprovalPrompt = {
    reason:
      egress.hosts.length > 0
        ? `Send a request to ${egress.hosts.join(', ')}`
        : egress.carries
          ? `Send ${egress.carries.split(' (')[0]} out through ${tool.server} · ${tool.tool.name}`
          : `Reach outside this machine through ${tool.server} · ${tool.tool.name}`,
    // The addresses themselves are what the person judges (a query string carrying data stands out).
    preview: egress.spelled.join('\n') || previewOf(tool, input),
    warnings: [egress.why],
    notes: [],
    alwaysKind: egress.rememberable ? 'host' : 'none',
    ...(egress.rememberable ? { hosts: egress.hosts } : {}),
  };
  return { ask: true, ...prompt, egress };
}

type Gate = { ok: true; asked: boolean } | { ok: false; why: string };

/** Asks the person when `need` says so; says whether the call may go on and whether anyone was asked. */
async function ask(path: CallPath, request: CallRequest, need: ApprovalNeed & { egress?: EgressQuestion }, edit?: ProposedEdit): Promise<Gate> {
  if (!need.ask) return { ok: true, asked: false };
  const { ask: _ask, egress, ...prompt } = need;
  const decision = await path.askApproval(
    {
      callId: request.callId,
      tool: request.tool,
      input: request.input,
      ...prompt,
      ...(edit ? { edit } : {}),
      ...(egress ? { egress } : {}),
      ...(request.fromApp ? { fromApp: true } : {}),
    },
    request.signal,
  );
  if (request.signal.aborted) return { ok: false, why: CANCELLED };
  if (decision === 'deny')
    return { ok: false, why: egress ? `${DENIED} (It would have sent data to ${egress.hosts.join(', ') || 'the outside world'}.)` : DENIED };
  if (decision === 'always' && need.alwaysKind === 'host') await path.egress.allow(need.hosts ?? []);
  else if (decision === 'always' && need.alwaysKind !== 'none') await path.approvals.add(approvalKey(request.tool));
  return { ok: true, asked: true };
}
