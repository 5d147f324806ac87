import type Anthropic from '@anthropic-ai/sdk';
import { randomBytes } from 'node:crypto';

const SWEEP_MS = 60_000;

interface QuerySession {
  messages: Anthropic.MessageParam[];
  lastActivity: number;
}

/**
 * The `query` tool's conversations, in memory as the claude-agent seed keeps them: 32-hex ids from a
 * secure random source, at most `maxHistory` messages each, forgotten after `timeoutMs` without use
 * (swept every minute by an unref'd timer, and checked again on every use).
 */
export class QuerySessions {
  private readonly sessions = new Map<string, QuerySession>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly maxHistory: number,
    private readonly timeoutMs: number,
    /** Told of each session the sweep forgets, and of how many went at once. */
    private readonly log: (message: string) => void = () => undefined,
    private readonly clock: () => number = Date.now,
  ) {
    this.timer = setInterval(() => this.sweep(), SWEEP_MS);
    this.timer.unref();
  }

  /** The live session `id`, or a new one (with a new id) when there is none or it expired. */
  open(id: string | undefined): { id: string; history: Anthropic.MessageParam[]; isNew: boolean } {
    this.sweep();
    const found = id === undefined ? undefined : this.sessions.get(id);
    if (id !== undefined && found) return { id, history: [...found.messages], isNew: false };
    const fresh = randomBytes(16).toString('hex');
    this.sessions.set(fresh, { messages: [], lastActivity: this.clock() });
    this.log(`Created new session: ${fresh}`);
    return { id: fresh, history: [], isNew: true };
  }

  /** Adds one exchange and trims the history to the cap, keeping it starting with a prompt. */
  record(id: string, prompt: Anthropic.MessageParam, answer: Anthropic.MessageParam): void {
    const session = this.sessions.get(id);
    if (!session) return;
    const messages = [...session.messages, prompt, answer].slice(-this.maxHistory);
    while (messages.length > 0 && messages[0]!.role !== 'user') messages.shift();
    session.messages = messages;
    session.lastActivity = this.clock();
  }

  get size(): number {
    return this.sessions.size;
  }

  dispose(): void {
    clearInterval(this.timer);
    this.sessions.clear();
  }

  private sweep(): void {
    const now = this.clock();
    let expired = 0;
    for (const [id, s] of this.sessions) {
      if (now - s.lastActivity <= this.timeoutMs) continue;
      this.sessions.delete(id);
      this.log(`Cleaned up expired session: ${id}`);
      expired++;
    }
    if (expired > 0) this.log(`Cleaned up ${expired} expired session(s)`);
  }
}
