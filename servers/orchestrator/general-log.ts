import { appendFileSync, chmodSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE, PRIVATE_FOLDER } from '../../src/core/chat/jsonl-log';
import type { LogConfig } from './config';

/** One logged value's most characters: a transcript answered by get_session would otherwise copy itself whole. */
const MAX_DATA_CHARS = 4000;
/** A log past this size when a process first writes to it becomes `general.1.log` (replacing the one before). */
const ROTATE_BYTES = 10 * 1024 * 1024;

export type LogLevel = 'INFO' | 'ERROR' | 'TOOL_CALL' | 'TOOL_RESULT';

/**
 * The claude-agent seed's general log: `[timestamp] [LEVEL] message {data}` lines in `general.log`
 * (CLAUDE_LOG_DIR), or on stderr with CLAUDE_LOG_TO_STDERR=true, or nowhere with
 * CLAUDE_DISABLE_LOGGING=true. Never on stdout, which is the MCP stream. The file holds prompts and
 * answers, so it is the person's alone (0600 in a 0700 folder). A log that cannot be written never
 * fails the work it describes: it says so on stderr once and stops.
 */
export class GeneralLog {
  readonly file: string | undefined;
  private opened = false;
  private broken = false;

  constructor(
    private readonly config: LogConfig,
    private readonly stderr: (text: string) => void = (text) => void process.stderr.write(text),
  ) {
    this.file = config.to === 'file' ? join(config.dir, 'general.log') : undefined;
  }

  info(message: string, data?: unknown): void {
    this.write('INFO', message, data);
  }

  /** Errors reach stderr too when there is no file to read them in, as the seed does. */
  error(message: string, data?: unknown): void {
    this.write('ERROR', message, data);
    if (this.config.to === 'off') this.stderr(line('ERROR', message, data));
  }

  toolCall(tool: string, args: unknown): void {
    this.write('TOOL_CALL', `Tool: ${tool}`, args);
  }

  toolResult(tool: string, result: unknown): void {
    this.write('TOOL_RESULT', `Tool: ${tool}`, result);
  }

  private write(level: LogLevel, message: string, data: unknown): void {
    if (this.config.to === 'off' || this.broken) return;
    const text = line(level, message, data);
    if (!this.file) return this.stderr(text);
    try {
      if (!this.opened) this.open(this.file);
      appendFileSync(this.file, text, { mode: PRIVATE_FILE });
      // appendFile's mode applies only to a file it creates; one left by an older run may be wider.
      if (!this.opened) chmodSync(this.file, PRIVATE_FILE);
      this.opened = true;
    } catch (err) {
      this.broken = true;
      this.stderr(`orchestrator: cannot write the log ${this.file}: ${(err as Error).message}; logging stops (CLAUDE_LOG_DIR picks another folder)\n`);
    }
  }

  /** Nothing is created before the first line: a server that is never called leaves no file. */
  private open(file: string): void {
    mkdirSync(this.config.dir, { recursive: true, mode: PRIVATE_FOLDER });
    let size = 0;
    try {
      size = statSync(file).size;
    } catch {
      // no log yet
    }
    if (size > ROTATE_BYTES) renameSync(file, join(this.config.dir, 'general.1.log'));
  }
}

function line(level: LogLevel, message: string, data: unknown): string {
  return `[${new Date().toISOString()}] [${level}] ${message}${data === undefined ? '' : ` ${capped(data)}`}\n`;
}

function capped(data: unknown): string {
  const json = JSON.stringify(data) ?? String(data);
  return json.length <= MAX_DATA_CHARS ? json : `${json.slice(0, MAX_DATA_CHARS)}… (${json.length - MAX_DATA_CHARS} more characters)`;
}
