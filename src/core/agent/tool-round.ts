import { getMaxListeners, setMaxListeners } from 'node:events';
import type Anthropic from '@anthropic-ai/sdk';
import type { ChatEvent } from '../../shared/protocol';
import { approvedCall, resolveTool, type CallPath } from '../tool-call/approved-call';
import { appOf, appResultOf } from '../apps/app-events';
import type { ToolOffer } from '../tool-offer/tool-offer';
import { capChatContent } from './result-caps';
import { convertToolResult } from './tool-results';
import type { AgentOutput } from './types';

/** One round of a turn's tool calls: what they run through and report to. */
export interface ToolRound {
  path: CallPath;
  /** Unwraps a call made through the host's call_tool, and says what an unknown name should have been. */
  offer: ToolOffer;
  /** The conversation so far (a sampling request made during a call may quote it). */
  conversation: readonly Anthropic.MessageParam[];
  turnId: string;
  emit: (out: AgentOutput) => void;
  signal: AbortSignal;
}

/**
 * Runs the calls of one reply concurrently through the approved-call path; results come back in the model's
 * order. Each call gets its card (a tool_call event, then its tool_result); a call in `refusals` is not run but
 * answered with its error.
 */
export function runToolUses(
  round: ToolRound,
  uses: Anthropic.ToolUseBlock[],
  refusals: ReadonlyMap<string, string>,
): Promise<Anthropic.ToolResultBlockParam[]> {
  // Each running call listens to the turn's signal, to be cancelled with it (and its approval and the server's
  // questions may too), each taken off when it ends: a reply of many calls is that many listeners, not a leak,
  // which Node would otherwise warn about on the person's terminal past ten.
  setMaxListeners(Math.max(getMaxListeners(round.signal), LISTENERS_PER_CALL * uses.length + 10), round.signal);
  return Promise.all(uses.map((use) => runOne(round, use, refusals.get(use.id))));
}

/** What one call may hang on the turn's signal at once: its request, its approval, a server's question. */
const LISTENERS_PER_CALL = 3;

async function runOne(round: ToolRound, use: Anthropic.ToolUseBlock, refusal: string | undefined): Promise<Anthropic.ToolResultBlockParam> {
  const { offer, turnId, emit, signal } = round;
  const event = (e: ChatEvent): void => emit({ type: 'event', event: e });
  // A call through the host's call_tool is the call of the tool it names, for approval, the card and the server.
  const { name, input } = offer.unwrap(use);
  const tool = resolveTool(offer.host, name);
  // A name that resolves to no tool is shown as the model wrote it, with no server: the front ends mark it unknown.
  event({ kind: 'tool_call', turnId, callId: use.id, server: tool?.server ?? '', tool: tool?.tool.name ?? name, input, ...appOf(tool) });
  const fail = (text: string, durationMs = 0): Anthropic.ToolResultBlockParam => {
    event({ kind: 'tool_result', callId: use.id, isError: true, content: [{ type: 'text', text }], durationMs });
    return { type: 'tool_result', tool_use_id: use.id, is_error: true, content: text };
  };
  if (refusal) return fail(refusal);
  if (!tool) return fail(offer.unknownTool(name));
  const outcome = await approvedCall(round.path, {
    callId: use.id,
    tool,
    input,
    signal,
    conversation: round.conversation,
    onProgress: (progress, total, message) => emit({ type: 'progress', callId: use.id, progress, total, message }),
  });
  if (!outcome.ok) return fail(outcome.why, outcome.durationMs);
  const { forModel, forChat } = convertToolResult(outcome.result);
  const isError = outcome.result.isError === true;
  event({
    kind: 'tool_result',
    callId: use.id,
    isError,
    content: capChatContent(forChat, use.name),
    durationMs: outcome.durationMs,
    ...appResultOf(tool, outcome.result),
  });
  return { type: 'tool_result', tool_use_id: use.id, is_error: isError || undefined, content: forModel };
}
