import type { AgentOutput } from './core/agent/types';

const dim = (s: string, color: boolean): string => (color ? `\x1b[2m${s}\x1b[0m` : s);
const red = (s: string, color: boolean): string => (color ? `\x1b[31m${s}\x1b[0m` : s);

function oneLine(value: unknown, max = 200): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const flat = (text ?? '').replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * Prints what a turn reports to the terminal: streamed text as it comes, each tool call and its
 * result on lines of their own, and the end of the turn when it did not simply finish.
 */
export class CliRenderer {
  private midLine = false;
  private names = new Map<string, string>();

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly color: boolean,
  ) {}

  handle(output: AgentOutput): void {
    if (output.type === 'delta') {
      this.out.write(output.text);
      this.midLine = !output.text.endsWith('\n');
      return;
    }
    if (output.type === 'progress') return; // a terminal line per progress tick would drown the output
    const e = output.event;
    switch (e.kind) {
      case 'tool_call':
        this.names.set(e.callId, `${e.server}__${e.tool}`);
        this.line(dim(`[tool] ${e.server}__${e.tool} ${oneLine(e.input)}`, this.color));
        break;
      case 'tool_result': {
        const name = this.names.get(e.callId) ?? 'tool';
        const text = e.content.map((c) => (c.type === 'text' ? c.text : `[${c.mimeType} image]`)).join(' ');
        const label = e.isError ? red(`[error] ${name}`, this.color) : dim(`[result] ${name}`, this.color);
        this.line(`${label} ${dim(`(${e.durationMs} ms)`, this.color)} ${oneLine(text)}`);
        break;
      }
      case 'turn_end':
        if (this.midLine) this.line('');
        if (e.status === 'error') this.line(red(`Error: ${e.error ?? 'the turn failed'}`, this.color));
        else if (e.status === 'stopped') this.line(dim('[stopped]', this.color));
        else if (e.status === 'max_iterations') this.line(dim(e.error ?? '[iteration cap reached]', this.color));
        break;
      case 'notice':
        this.line(e.level === 'error' ? red(e.text, this.color) : dim(e.text, this.color));
        break;
      default:
        break;
    }
  }

  line(text: string): void {
    if (this.midLine) this.out.write('\n');
    this.out.write(`${text}\n`);
    this.midLine = false;
  }
}
