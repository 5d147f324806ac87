import type { ApprovalDecision, ChatEvent, ToolContent, TurnUsage } from '../common/protocol';
import type { TurnStatus } from '../core/agent/types';

/** One tool call of the run, as `--output-format json` reports it. */
export interface CallRecord {
  id: string;
  /** As the model named it: `<server>__<tool>`. */
  name: string;
  server: string;
  tool: string;
  input: unknown;
  /** `not_asked` when no question was needed (a read, an "always" of this run, --yes). */
  approval: ApprovalDecision | 'not_asked';
  is_error?: boolean;
  /** The result's text (images named), as the model was given it. */
  result?: string;
  duration_ms?: number;
}

/** Claude Code's subtypes where they mean the same; ours for our own limits. */
type ResultSubtype = 'success' | 'error_max_iterations' | 'error_max_tokens' | 'error_during_execution' | 'error_interrupted';

const SUBTYPES: Record<TurnStatus, ResultSubtype> = {
  done: 'success',
  max_iterations: 'error_max_iterations',
  max_tokens: 'error_max_tokens',
  error: 'error_during_execution',
  stopped: 'error_interrupted',
};

/**
 * `--output-format json` and `stream-json`: the run as a program reads it, in the field names of Claude
 * Code's CLI where they fit (type, subtype, is_error, result, num_turns, usage, total_cost_usd,
 * session_id, permission_denials). `json` prints one object when the run ends; `stream-json` prints a
 * line per event as it happens (Claude Code's message shapes), the same object last. Nothing else is
 * written to stdout in these forms.
 */
export class JsonOutput {
  private readonly started = Date.now();
  private readonly calls = new Map<string, CallRecord>();
  /** The text of the model's latest reply: a reply is what it wrote after the last tool results. */
  private replyTexts: string[] = [];
  private afterResults = true;
  private replies = 0;
  private end: Extract<ChatEvent, { kind: 'turn_end' }> | undefined;

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly streaming: boolean,
    private readonly sessionId: () => string,
  ) {}

  /** The first line of a stream: what the run works with. */
  init(info: { cwd: string; model: string; tools: string[]; servers: Array<{ name: string; status: string }> }): void {
    this.emit({
      type: 'system',
      subtype: 'init',
      cwd: info.cwd,
      session_id: this.sessionId(),
      model: info.model,
      tools: info.tools,
      mcp_servers: info.servers,
    });
  }

  handle(event: ChatEvent): void {
    switch (event.kind) {
      case 'thinking':
        this.reply();
        this.emit(this.assistant({ type: 'thinking', thinking: event.text }));
        break;
      case 'assistant_text':
        this.reply();
        this.replyTexts.push(event.text);
        this.emit(this.assistant({ type: 'text', text: event.text }));
        break;
      case 'tool_call': {
        this.reply();
        const name = `${event.server}__${event.tool}`;
        this.calls.set(event.callId, { id: event.callId, name, server: event.server, tool: event.tool, input: event.input, approval: 'not_asked' });
        this.emit(this.assistant({ type: 'tool_use', id: event.callId, name, input: event.input }));
        break;
      }
      case 'approval': {
        const call = this.calls.get(event.callId);
        if (call) call.approval = event.decision;
        this.emit({ type: 'system', subtype: 'approval', tool_use_id: event.callId, decision: event.decision, session_id: this.sessionId() });
        break;
      }
      case 'tool_result': {
        this.afterResults = true;
        const call = this.calls.get(event.callId);
        const text = resultText(event.content);
        if (call) Object.assign(call, { is_error: event.isError, result: text, duration_ms: event.durationMs });
        this.emit({
          type: 'user',
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: event.callId, is_error: event.isError, content: text }] },
          session_id: this.sessionId(),
        });
        break;
      }
      case 'notice':
        if (!event.listing) this.emit({ type: 'system', subtype: 'notice', level: event.level, text: event.text, session_id: this.sessionId() });
        break;
      case 'compaction':
        this.emit({ type: 'system', subtype: 'compaction', replaced: event.replaced, session_id: this.sessionId() });
        break;
      case 'turn_end':
        this.end = event;
        break;
      default:
        break;
    }
  }

  /** The run's result: printed last (the only line with `json`); `errors` are what else went wrong. */
  finish(errors: string[] = []): void {
    const status = this.end?.status ?? 'error';
    const all = [...(this.end?.error && status !== 'done' ? [this.end.error] : []), ...errors];
    const usage = this.end?.usage;
    const calls = [...this.calls.values()];
    this.write({
      type: 'result',
      subtype: SUBTYPES[status],
      is_error: status !== 'done' || errors.length > 0,
      result: this.replyTexts.join('\n\n'),
      stop_reason: status,
      num_turns: this.replies,
      duration_ms: Date.now() - this.started,
      session_id: this.sessionId(),
      ...(usage ? { model: usage.model } : {}),
      total_cost_usd: usage?.costUsd ?? null,
      usage: usageFields(usage),
      calls,
      permission_denials: calls.filter((c) => c.approval === 'deny').map((c) => ({ tool_name: c.name, tool_use_id: c.id, tool_input: c.input })),
      ...(all.length > 0 ? { errors: all } : {}),
    });
  }

  /** A model reply starts with its first block after the tool results (or the person's message). */
  private reply(): void {
    if (!this.afterResults) return;
    this.afterResults = false;
    this.replies += 1;
    this.replyTexts = [];
  }

  private assistant(block: Record<string, unknown>): Record<string, unknown> {
    return { type: 'assistant', message: { role: 'assistant', content: [block] }, session_id: this.sessionId() };
  }

  private emit(line: Record<string, unknown>): void {
    if (this.streaming) this.write(line);
  }

  private write(line: Record<string, unknown>): void {
    this.out.write(`${JSON.stringify(line)}\n`);
  }
}

function resultText(content: ToolContent[]): string {
  return content.map((c) => (c.type === 'text' ? c.text : `[${c.mimeType} image]`)).join('\n');
}

/** The Messages API's names for the tokens, as Claude Code reports them. */
function usageFields(usage: TurnUsage | undefined): Record<string, number> {
  return {
    input_tokens: usage?.input ?? 0,
    output_tokens: usage?.output ?? 0,
    cache_read_input_tokens: usage?.cacheRead ?? 0,
    cache_creation_input_tokens: usage?.cacheWrite ?? 0,
  };
}
