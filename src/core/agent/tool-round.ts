import { getMaxListeners, setMaxListeners } from 'node:events';
import type Anthropic from '@anthropic-ai/sdk';
import type { ChatEvent, ToolContent } from '../../common/protocol';
import { approvedCall, resolveTool, type CallPath, type QuestionTurn } from '../tool-call/approved-call';
import { readOnlyTool } from '../tool-call/tool-call-rules';
import type { HubTool } from '../mcp/types';
import { appOf, appResultOf } from '../apps/app-events';
import type { ToolOffer } from '../tool-offer/tool-offer';
import { capChatContent, capToolResults, DEFAULT_TEXT_LIMITS, type TextLimits } from './result-caps';
import { convertToolResult } from './tool-results';
import type { AgentOutput } from './types';

/** One round of a turn's tool calls: what they run through and report to. */
export interface ToolRound {
  path: CallPath;
  /** Unwraps a call made through the host's call_tool, and says what an unknown name should have been. */
  offer: ToolOffer;
  turnId: string;
  emit: (out: AgentOutput) => void;
  signal: AbortSignal;
  /** What the reply's results may send the model (result-caps.ts: smaller for a small context window). */
  textLimits?: TextLimits;
  /** The tool of each call by tool_use id, as the agent looked it up when the call began streaming (agent.ts). */
  resolved?: ReadonlyMap<string, HubTool | undefined>;
}

/** One call of a reply, resolved once: the tool it stands for (call_tool's is the tool it names) and its input. */
interface PlannedCall {
  use: Anthropic.ToolUseBlock;
  name: string;
  input: Record<string, unknown>;
  tool: HubTool | undefined;
  refusal: string | undefined;
}

/**
 * Runs the calls of one reply in the order the model wrote them, through the approved-call path: a call that may
 * change something runs alone, after the calls before it have ended (a read written after a write sees what was
 * written); consecutive calls that only read run together. Questions to the person are asked one at a time, in
 * the model's order, together or not. Results come back in the model's order. Each call gets its card (a tool_call
 * event when it starts, then its tool_result); a call in `refusals` is not run but answered with its error.
 * Results are capped here and only here, by result-caps.ts: each card as its call ends, and what the model is sent
 * once the reply's calls all ended (they share the reply's allowance).
 */
export async function runToolUses(
  round: ToolRound,
  uses: Anthropic.ToolUseBlock[],
  refusals: ReadonlyMap<string, string>,
): Promise<Anthropic.ToolResultBlockParam[]> {
  // Each running call listens to the turn's signal, to be cancelled with it (and its approval and the server's
  // questions may too), each taken off when it ends: a reply of many calls is that many listeners, not a leak,
  // which Node would otherwise warn about on the person's terminal past ten.
  setMaxListeners(Math.max(getMaxListeners(round.signal), LISTENERS_PER_CALL * uses.length + 10), round.signal);
  const results: Anthropic.ToolResultBlockParam[] = [];
  for (const group of readGroups(uses.map((use) => plan(round, use, refusals.get(use.id))))) {
    const questions = askingInOrder(group.length);
    results.push(...(await Promise.all(group.map((call, i) => runOne(round, call, questions[i]!)))));
  }
  return capToolResults(results, new Map(uses.map((u) => [u.id, u.name])), round.textLimits ?? DEFAULT_TEXT_LIMITS);
}

/** What one call may hang on the turn's signal at once: its request, its approval, a server's question. */
const LISTENERS_PER_CALL = 3;

function plan(round: ToolRound, use: Anthropic.ToolUseBlock, refusal: string | undefined): PlannedCall {
  // A call through the host's call_tool is the call of the tool it names, for approval, the card and the server.
  const { name, input } = round.offer.unwrap(use);
  // Looked up once per call: as it streamed, or now (call_tool's inner tool, a reply that was not streamed here).
  const known = name === use.name && round.resolved?.has(use.id);
  return { use, name, input, tool: known ? round.resolved!.get(use.id) : resolveTool(round.offer.host, name), refusal };
}

/**
 * A call only reads when its tool says so (readOnlyHint, and not destructive: the rule that lets it run without
 * approval), or when it runs nothing at all (refused, or no such tool). Consecutive such calls form one group;
 * every other call is a group of its own.
 */
function readGroups(calls: PlannedCall[]): PlannedCall[][] {
  const groups: PlannedCall[][] = [];
  let reads: PlannedCall[] | undefined;
  for (const call of calls) {
    const onlyReads = call.refusal !== undefined || !call.tool || readOnlyTool(call.tool);
    if (!onlyReads) {
      reads = undefined;
      groups.push([call]);
    } else if (reads) reads.push(call);
    else groups.push((reads = [call]));
  }
  return groups;
}

/** Each call of a group asks (if it must) once the calls before it were answered or needed no answer. */
function askingInOrder(count: number): QuestionTurn[] {
  let before: Promise<void> = Promise.resolve();
  return Array.from({ length: count }, () => {
    let passed!: () => void;
    const mine = new Promise<void>((resolve) => (passed = resolve));
    const turn = { before, passed };
    before = mine;
    return turn;
  });
}

async function runOne(round: ToolRound, call: PlannedCall, questions: QuestionTurn): Promise<Anthropic.ToolResultBlockParam> {
  try {
    return await callOne(round, call, questions);
  } finally {
    questions.passed();
  }
}

async function callOne(round: ToolRound, { use, name, input, tool, refusal }: PlannedCall, questions: QuestionTurn): Promise<Anthropic.ToolResultBlockParam> {
  const { offer, turnId, emit, signal } = round;
  const event = (e: ChatEvent): void => emit({ type: 'event', event: e });
  // A name that resolves to no tool is shown as the model wrote it, with no server: the front ends mark it unknown.
  event({ kind: 'tool_call', turnId, callId: use.id, server: tool?.server ?? '', tool: tool?.tool.name ?? name, input, ...appOf(tool) });
  // Every card, a failure's too, shows what the chat may hold of it.
  const card = (isError: boolean, content: ToolContent[], durationMs: number, extra: ReturnType<typeof appResultOf> = {}): void =>
    event({ kind: 'tool_result', callId: use.id, isError, content: capChatContent(content, use.name), durationMs, ...extra });
  const fail = (text: string, durationMs = 0): Anthropic.ToolResultBlockParam => {
    card(true, [{ type: 'text', text }], durationMs);
    return { type: 'tool_result', tool_use_id: use.id, is_error: true, content: text };
  };
  if (refusal) return fail(refusal);
  if (!tool) return fail(offer.unknownTool(name));
  const outcome = await approvedCall(round.path, {
    callId: use.id,
    tool,
    input,
    signal,
    questions,
    onProgress: (progress, total, message) => emit({ type: 'progress', callId: use.id, progress, total, message }),
  });
  if (!outcome.ok) return fail(outcome.why, outcome.durationMs);
  const { forModel, forChat } = convertToolResult(outcome.result);
  const isError = outcome.result.isError === true;
  card(isError, forChat, outcome.durationMs, appResultOf(tool, outcome.result));
  return { type: 'tool_result', tool_use_id: use.id, is_error: isError || undefined, content: forModel };
}
