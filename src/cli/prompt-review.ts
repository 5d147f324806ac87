import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { promptConversation } from '../core/chat/prompt-messages';
import { escapeControls as printable } from './escape';

/** How the review talks to the person. */
export interface ReviewTerminal {
  /** The next line typed after `prompt`; `prefill` is put on the line to edit (on a terminal). Undefined once input ended. */
  ask(prompt: string, opts?: { prefill?: string }): Promise<string | undefined>;
  line(text: string): void;
  /** `$VISUAL` or `$EDITOR`, run through the shell as git runs it, with the file as its argument. */
  editor: string | undefined;
}

/**
 * Shows a prompt's messages before anything is sent, as the research seed does, and asks: send it
 * as it is (roles, embedded resources and images kept), edit it, or drop it. Edited, it is sent as
 * one message of the person's with the text they left. Returns what to send, or undefined.
 */
export async function reviewPrompt(ref: string, result: GetPromptResult, term: ReviewTerminal): Promise<GetPromptResult | undefined> {
  const { shown } = promptConversation(result, ref);
  const n = shown.length;
  term.line(printable(`[prompt ${ref}: ${n} message${n === 1 ? '' : 's'}: ${shown.map((m) => m.role).join(', ')}]`));
  for (const m of shown) term.line(`--- ${m.role} ---\n${printable(m.text)}`);
  for (;;) {
    const answer = (await term.ask('Send it? [Y]es / [e]dit / [n]o: '))?.trim().toLowerCase();
    if (answer === undefined) return undefined;
    if (answer === '' || answer === 'y' || answer === 'yes') return result;
    if (answer === 'n' || answer === 'no') {
      term.line('[prompt not sent]');
      return undefined;
    }
    if (answer === 'e' || answer === 'edit') return edited(result, await edit(editableText(result), term), term);
    term.line('(y sends it, e edits it first, n drops it)');
  }
}

function edited(result: GetPromptResult, text: string | undefined, term: ReviewTerminal): GetPromptResult | undefined {
  if (!text?.trim()) {
    term.line('[nothing left to send; prompt not sent]');
    return undefined;
  }
  return { ...result, messages: [{ role: 'user', content: { type: 'text', text: text.trim() } }] };
}

/** In the person's editor when they have one; else on the input line, filled in with the text to change. */
async function edit(text: string, term: ReviewTerminal): Promise<string | undefined> {
  if (term.editor) return inEditor(term.editor, text, term);
  term.line('Edit the text and press Enter (an empty line sends nothing):');
  return term.ask('> ', { prefill: text.replace(/\s*\n\s*/g, ' ') });
}

function inEditor(editor: string, text: string, term: ReviewTerminal): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-agent-prompt-'));
  const file = join(dir, 'prompt.md');
  try {
    writeFileSync(file, text, { mode: 0o600 });
    const raw = process.stdin.isTTY === true && process.stdin.isRaw;
    if (raw) process.stdin.setRawMode(false);
    // The person's own variable, read as git reads it: a command line for the shell, the file its last argument.
    const run = spawnSync(process.env.SHELL || '/bin/sh', ['-c', `${editor} "$1"`, 'editor', file], { stdio: 'inherit' });
    if (raw) process.stdin.setRawMode(true);
    if (run.status !== 0) {
      term.line(printable(`[the editor (${editor}) ended with ${run.error?.message ?? `exit code ${run.status}`}; prompt not sent]`));
      return undefined;
    }
    return readFileSync(file, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The prompt as text to edit: each message's text (an embedded text resource's too), roles named when there are several. */
function editableText(result: GetPromptResult): string {
  const roles = new Set(result.messages.map((m) => m.role));
  return result.messages
    .map((m) => {
      const c = m.content;
      const body =
        c.type === 'text'
          ? c.text
          : c.type === 'resource' && 'text' in c.resource && typeof c.resource.text === 'string'
            ? c.resource.text
            : `[${c.type === 'resource_link' ? `resource ${c.uri}` : c.type}: left out when the prompt is edited]`;
      return roles.size > 1 ? `[${m.role}]\n${body}` : body;
    })
    .join('\n\n');
}
