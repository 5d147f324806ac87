import type Anthropic from '@anthropic-ai/sdk';
import type { HubTool } from '../mcp/types';
import { ContentIndex, normalise, reversedForms, type ContentMatch } from './content-index';
import { labelOfAttachment, labelOfCall, labelOfPersonText, labelOfServerText, type ContentLabel, type HandedLabels } from './labels';

/**
 * A chat's labels: what entered it from where, kept as the chat's own state. The secrets it holds are written
 * to the chat's folder as they arrive (a compaction that drops the message, a restart, a resumed chat or a
 * sub-agent's return keeps them; only clearing the chat clears them). The private text itself is indexed
 * from the conversation (content-index.ts), again after a restart from what the model still sees.
 */

/** One secret the chat holds, as stored. */
export interface SecretRecord {
  at: number;
  why: string;
}

/** Where the secrets are kept (the chat's `labels.jsonl`); absent: for this process only. */
export interface SecretLog {
  append(record: SecretRecord): Promise<void>;
  load(): Promise<SecretRecord[]>;
}

/** What a call would carry out that came from a private source. */
export interface Carried extends ContentMatch {
  /** True when it is a secret value (not only private text). */
  secret: boolean;
}

/** Public text kept to tell a private match from a quote of something public (past it, a match counts). */
const MAX_KNOWN_CHARS = 8_000_000;

/** Secret values shorter than this are too common to look for (`true`, a port). */
const MIN_SECRET_VALUE = 6;

export class ChatLabels {
  private readonly secretWhys = new Map<string, number>();
  private readonly index = new ContentIndex();
  private readonly values = new Map<string, string>();
  private loaded: Promise<void> | undefined;
  private pending: { messages: readonly Anthropic.MessageParam[]; personText: readonly string[] } | undefined;
  private readPrivate = false;
  /** Text that is no one's secret, as the index compares it: what the person typed, what public pages said. */
  private readonly known: string[] = [];
  private knownChars = 0;

  constructor(private readonly log?: SecretLog) {}

  /** Reads the stored secrets once. */
  load(): Promise<void> {
    this.loaded ??= (async () => {
      for (const r of (await this.log?.load()) ?? []) if (!this.secretWhys.has(r.why)) this.secretWhys.set(r.why, r.at);
    })();
    return this.loaded;
  }

  /** A conversation read back from disk: labelled again, on first use, from what it holds. */
  restore(messages: readonly Anthropic.MessageParam[], personText: readonly string[]): void {
    this.pending = { messages, personText };
  }

  /** Content that entered the chat, with its label. */
  note(label: ContentLabel, text: string): void {
    if (label.secret && !this.secretWhys.has(label.secret)) {
      const at = Date.now();
      this.secretWhys.set(label.secret, at);
      void this.log?.append({ at, why: label.secret });
    }
    for (const value of label.secretValues) if (value.length >= MIN_SECRET_VALUE) this.values.set(value, label.source);
    if (label.provenance !== 'person' && label.provenance !== 'public') {
      this.readPrivate = true;
      this.index.add(label.source, text);
    } else if (this.knownChars < MAX_KNOWN_CHARS) {
      const normal = normalise(text);
      this.known.push(normal);
      this.knownChars += normal.length;
    }
  }

  noteCall(tool: HubTool, input: Record<string, unknown>, text: string, failed: boolean, result?: Parameters<typeof labelOfCall>[4]): void {
    this.note(labelOfCall(tool, input, text, failed, result), text);
  }

  notePerson(text: string): void {
    this.note(labelOfPersonText(text), text);
  }

  noteAttachment(path: string, text: string): void {
    this.note(labelOfAttachment(path, text), text);
  }

  noteServer(server: string, text: string): void {
    this.note(labelOfServerText(server, text), text);
  }

  /** A block the person attached to a message (a file, a folder's listing, a resource, the problems). */
  noteContext(text: string): void {
    this.noteUserText(text, new Set());
  }

  /** A sub-agent's labels, handed up with its result. */
  noteHanded(handed: HandedLabels, source: string): void {
    for (const why of handed.secrets) this.note({ provenance: 'subagent', source, secret: `${source}: ${why}`, secretValues: [] }, '');
    if (handed.private) this.readPrivate = true;
  }

  /** Why the chat holds a secret, oldest first (empty: it holds none). */
  secrets(): string[] {
    this.applyPending();
    return [...this.secretWhys.keys()];
  }

  /** What this chat's labels say to a sub-agent it starts, or what a sub-agent says back. */
  handed(named?: readonly string[]): HandedLabels {
    this.applyPending();
    return { secrets: this.secrets(), private: this.readPrivate, ...(named ? { named: [...named] } : {}) };
  }

  /** The private content `value` carries in a form the guard can reverse: a secret value first, else private text. */
  carried(value: string): Carried | undefined {
    this.applyPending();
    if (this.values.size > 0) {
      for (const form of reversedForms(value)) {
        for (const [secret, source] of this.values) if (form.includes(secret)) return { source, excerpt: mask(secret), secret: true };
      }
    }
    const match = this.index.find(value, (stretch) => this.known.some((k) => k.includes(stretch)));
    return match ? { ...match, secret: false } : undefined;
  }

  private applyPending(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    const person = new Set(pending.personText);
    const uses = new Map<string, Anthropic.ToolUseBlockParam>();
    for (const m of pending.messages) {
      if (typeof m.content === 'string') {
        if (m.role === 'user') this.noteUserText(m.content, person);
        continue;
      }
      for (const b of m.content) {
        if (b.type === 'tool_use') uses.set(b.id, b);
        else if (b.type === 'tool_result') this.noteStoredResult(b, uses.get(b.tool_use_id));
        else if (b.type === 'text' && m.role === 'user') this.noteUserText(b.text, person);
      }
    }
  }

  private noteUserText(text: string, person: ReadonlySet<string>): void {
    const attached = /^<attached_file path="([^"]*)"/.exec(text)?.[1];
    if (attached !== undefined) this.noteAttachment(attached, text);
    else if (person.has(text)) this.notePerson(text);
    // An attachment, a prompt's or a view's message, a summary of earlier turns: text the person did not type.
    else this.note({ ...labelOfServerText('earlier in this chat', text), source: 'earlier in this chat' }, text);
  }

  private noteStoredResult(block: Anthropic.ToolResultBlockParam, use: Anthropic.ToolUseBlockParam | undefined): void {
    const text = typeof block.content === 'string' ? block.content : (block.content ?? []).flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
    const name = use?.name ?? 'unknown__tool';
    const split = name.indexOf('__');
    const tool: HubTool = {
      qualifiedName: name,
      server: split > 0 ? name.slice(0, split) : 'mcp-agent',
      tool: { name: split > 0 ? name.slice(split + 2) : name, inputSchema: { type: 'object' } },
    };
    this.noteCall(tool, (use?.input ?? {}) as Record<string, unknown>, text, block.is_error === true);
  }
}

/** A secret shown on a card: enough to recognise it, not enough to use it. */
function mask(secret: string): string {
  return secret.length <= 8 ? '••••' : `${secret.slice(0, 4)}…${secret.slice(-2)}`;
}
