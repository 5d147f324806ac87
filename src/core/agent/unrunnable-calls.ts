import type { StreamedReply } from './reply-stream';

export interface ReplyLimits {
  maxTokens: number;
  /** Where the person changes it, e.g. "the mcpAgent.maxTokens setting". */
  maxTokensSetting: string;
}

/**
 * The tool calls of a reply that must not run, each with the error result that tells the model
 * why and what to do instead: the call max_tokens cut off (its input is whatever fit, so running
 * it would e.g. write half a file), and calls whose input was not a JSON object.
 */
export function unrunnableCalls({ message, badInputs }: StreamedReply, limits: ReplyLimits): Map<string, string> {
  const refusals = new Map<string, string>();
  const last = message.content[message.content.length - 1];
  if (message.stop_reason === 'max_tokens' && last?.type === 'tool_use') {
    refusals.set(
      last.id,
      `Your reply hit the max_tokens limit (${limits.maxTokens} tokens per reply, ${limits.maxTokensSetting}) while writing the input for ${last.name}, ` +
        'so the call was cut off and not run. Send it again with smaller input: split big content over several calls ' +
        '(e.g. write a big file in parts: create it with the first part, then add the rest with further edits).',
    );
  }
  for (const use of message.content) {
    if (use.type !== 'tool_use' || refusals.has(use.id)) continue;
    const problem = badInputs.get(use.id);
    if (problem) {
      refusals.set(
        use.id,
        `Your input for ${use.name} was not valid JSON (${problem}), so the call was not run. Send the call again with its input as one JSON object.`,
      );
    }
  }
  return refusals;
}
