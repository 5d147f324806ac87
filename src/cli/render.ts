import type { AgentOutput } from '../core/agent/types';
import { escapeControls as safe, StreamEscaper } from './escape';
import type { MarkdownStream } from './terminal-markdown';
import { activityText } from '../common/activity-text';
import { APP_VIEW_HINT } from '../core/mcp/requests/app-visibility';

const dim = (s: string, color: boolean): string => (color ? `\x1b[2m${s}\x1b[0m` : s);
const red = (s: string, color: boolean): string => (color ? `\x1b[31m${s}\x1b[0m` : s);

function oneLine(value: unknown, max = 200): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const flat = (text ?? '').replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * Prints what a turn reports to the terminal: streamed text as it comes, each tool call and its
 * result on lines of their own, and the end of the turn when it did not simply finish. Everything
 * that comes from the model, a tool or a server goes through `safe`: only the CLI's own colours
 * reach the terminal as escape sequences.
 */
export class CliRenderer {
  private midLine = false;
  private names = new Map<string, string>();
  /** Calls the person denied: their result is a decision, not an error, and is not printed as one. */
  private denied = new Set<string>();
  private readonly stream = new StreamEscaper();

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly color: boolean,
    /** Renders the replies' Markdown; without it (--plain) they are printed as written. */
    private readonly markdown?: MarkdownStream,
    /** Where the API's retries and what went wrong are said (stderr), so a wait after a 529 is never silence. */
    private readonly status?: NodeJS.WritableStream,
  ) {}

  handle(output: AgentOutput): void {
    if (output.type === 'delta') {
      // Escaped first: the Markdown renderer's own styling is then the only escape sequence that reaches the terminal.
      const safeText = this.stream.write(output.text);
      this.print(this.markdown ? this.markdown.write(safeText) : safeText);
      return;
    }
    if (output.type === 'progress') return; // a terminal line per progress tick would drown the output
    if (output.type === 'activity') {
      // Only the retries: a line per request or thinking block would drown the answer.
      const a = output.activity;
      if (a.kind === 'retry') this.status?.write(`mcp-agent: ${activityText(a, a.waitMs / 1000)}\n`);
      return;
    }
    const e = output.event;
    switch (e.kind) {
      case 'tool_call':
        this.names.set(e.callId, safe(e.server ? `${e.server}__${e.tool}` : `${e.tool} (unknown tool)`));
        this.line(dim(`[tool] ${this.names.get(e.callId)} ${safe(oneLine(e.input))}`, this.color));
        // A terminal cannot draw an MCP App: say there is one, and where it is drawn (chats are shared with VS Code).
        if (e.app) this.line(dim(`[view] ${this.names.get(e.callId)} has an interactive view (${safe(e.app.resourceUri)}): ${APP_VIEW_HINT}`, this.color));
        break;
      case 'approval':
        if (e.decision === 'deny') this.denied.add(e.callId);
        break;
      case 'tool_result': {
        const name = this.names.get(e.callId) ?? 'tool';
        const text = e.content.map((c) => (c.type === 'text' ? c.text : `[${c.mimeType} image]`)).join(' ');
        const label =
          e.isError && this.denied.has(e.callId)
            ? dim(`[denied] ${name}`, this.color)
            : e.isError
              ? red(`[error] ${name}`, this.color)
              : dim(`[result] ${name}`, this.color);
        this.line(`${label} ${dim(`(${e.durationMs} ms)`, this.color)} ${safe(oneLine(text))}`);
        break;
      }
      case 'turn_end':
        this.flushStream();
        if (this.midLine) this.line('');
        // How a turn ended short goes where errors go: stdout keeps the conversation only.
        if (e.status === 'error') this.problem(`Error: ${safe(e.error ?? 'the turn failed')}`);
        else if (e.status === 'stopped') this.problem('[stopped]');
        else if (e.status === 'max_iterations' || e.status === 'max_tokens') this.problem(safe(e.error ?? '[a limit was reached]'));
        break;
      case 'compaction':
        this.line(dim(`[conversation compacted: ${e.replaced} earlier messages summarised to fit the context window]`, this.color));
        break;
      case 'notice':
        if (e.level === 'error') this.problem(safe(e.text));
        else this.line(dim(safe(e.text), this.color));
        break;
      default:
        break;
    }
  }

  /** Prints a line of the CLI's own; text in it from elsewhere must already have gone through escapeControls. */
  line(text: string): void {
    this.flushStream();
    if (this.midLine) this.out.write('\n');
    this.out.write(`${text}\n`);
    this.midLine = false;
  }

  /** A line about the host, not the conversation (a server still starting, a tool left out): on stderr when there is one, so stdout keeps the conversation only. */
  note(text: string): void {
    if (!this.status) {
      this.line(dim(text, this.color));
      return;
    }
    this.flushStream();
    if (this.midLine) this.line('');
    this.status.write(`${text}\n`);
  }

  /** A line about something that went wrong (or stopped short), on the status stream (stderr) when there is one. */
  problem(text: string): void {
    if (!this.status) {
      this.line(red(text, this.color));
      return;
    }
    this.flushStream();
    if (this.midLine) this.line('');
    this.status.write(`${text}\n`);
  }

  private print(text: string): void {
    if (text.length === 0) return;
    this.out.write(text);
    this.midLine = !text.endsWith('\n');
  }

  private flushStream(): void {
    const held = this.stream.flush();
    if (!this.markdown) {
      if (held) this.print(held);
      return;
    }
    this.print(this.markdown.write(held) + this.markdown.flush());
  }
}
