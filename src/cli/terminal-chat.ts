// The CLI's chat: a new one or the one --continue / --resume names (a copy when another front end writes it),
// shown on the terminal or as JSON while it runs, and closed with a word on whether it was saved.
import type { AgentOutput, AskApproval, ToolHost } from '../core/agent/types';
import type { ChatEvent } from '../common/protocol';
import { ChatHistory } from '../core/chat/chat-history';
import { chatsDir } from '../core/chat/chat-home';
import { newChatId, newMeta, type ChatMeta } from '../core/chat/chat-meta';
import { describeWriter } from '../core/chat/chat-lock';
import { ChatSession } from '../core/chat/chat-session';
import { usageLine, usageTotal } from '../common/usage-format';
import { hostKey } from '../core/egress/egress-guard';
import type { CliArgs } from './args';
import { escapeControls } from './escape';
import type { JsonOutput } from './json-output';
import type { CliRenderer } from './render';

/** A new chat, or the one --continue / --resume names, shown on the terminal as it runs; undefined (said why) when there is none. */
export async function openChat(
  args: CliArgs,
  model: string,
  tools: ToolHost,
  ask: AskApproval,
  renderer: CliRenderer,
  show: Show,
): Promise<ChatSession | undefined> {
  const history = new ChatHistory(chatsDir(args.workspace));
  let meta = newMeta(newChatId(), model);
  if (args.continueChat || args.resume) {
    const found = args.resume ? await history.get(args.resume) : await history.latest();
    if (!found) {
      process.stderr.write(
        args.resume ? `mcp-agent: there is no chat ${args.resume} in this workspace\n` : 'mcp-agent: there is no earlier chat in this workspace to continue\n',
      );
      return undefined;
    }
    meta = found;
  }
  let session = cliSession(history, meta, tools, ask, args);
  let found = await loaded(session);
  const writer = session.writtenBy;
  if (writer) {
    // Another front end writes this chat (a VS Code window, another CLI): go on in a copy, not in its file.
    const was = meta.id;
    const who = describeWriter(writer);
    meta = await history.fork(meta, session.events, session.messages, `Copied while this turn was still running in ${who}: the rest of it is in chat ${was}.`);
    session.dispose();
    session = cliSession(history, meta, tools, ask, args);
    found = await loaded(session);
    process.stderr.write(escapeControls(`mcp-agent: chat ${was} is being written by ${who}; going on in a copy of it, chat ${meta.id}\n`));
  }
  if (args.continueChat || args.resume) {
    const turns = session.events.filter((e) => e.kind === 'user').length;
    renderer.line(escapeControls(`[continuing "${meta.title}" (${meta.id}), ${turns} message${turns === 1 ? '' : 's'} so far]`));
  }
  for (const line of found) renderer.line(escapeControls(`[${line}]`));
  session.on('event', (event) => {
    show.event(event);
    if (event.kind === 'turn_end' && event.usage)
      process.stderr.write(`mcp-agent: this turn: ${usageLine(event.usage)} · chat: ${usageTotal(session.info.usage, session.info.unpricedTurns ?? 0)}\n`);
  });
  session.on('transient', (output) => show.transient(output));
  return session;
}

/** Reads the chat; what opening it found (a line that could not be read, a turn whose end was not saved), in words. */
async function loaded(session: ChatSession): Promise<string[]> {
  const found: string[] = [];
  const off = session.on('event', (e) => {
    if (e.kind === 'notice' || (e.kind === 'turn_end' && e.error)) found.push(e.kind === 'notice' ? e.text : (e.error ?? ''));
  });
  try {
    await session.load();
  } finally {
    off();
  }
  return found;
}

function cliSession(history: ChatHistory, meta: ChatMeta, tools: ToolHost, ask: AskApproval, args: CliArgs): ChatSession {
  // "Always" answers last for this run only: the CLI keeps no approvals on disk.
  return new ChatSession({
    meta,
    store: history.store(meta.id),
    host: tools,
    workspace: args.workspace,
    approvals: memoryApprovals(args.allowHosts),
    ask,
    frontEnd: 'the CLI',
  });
}

/** Whether some of a chat could not be written: the run then ends non-zero, whatever else it did. */
let notSaved = false;

/** Whether a chat closed in this run could not be written whole. */
export function chatsNotSaved(): boolean {
  return notSaved;
}

/** Where a chat's events go: the terminal, or the JSON output with the terminal told only what went wrong. */
export interface Show {
  event(event: ChatEvent): void;
  transient(output: AgentOutput): void;
}

export function textShow(renderer: CliRenderer): Show {
  return { event: (event) => renderer.handle({ type: 'event', event }), transient: (output) => renderer.handle(output) };
}

/** With --output-format json the person (on stderr) still hears of retries, notices and how a turn ended short. */
export function jsonShow(json: JsonOutput, renderer: CliRenderer): Show {
  const said = new Set<ChatEvent['kind']>(['turn_end', 'notice', 'compaction']);
  return {
    event: (event) => {
      json.handle(event);
      if (said.has(event.kind)) renderer.handle({ type: 'event', event });
    },
    transient: (output) => void (output.type === 'activity' && renderer.handle(output)),
  };
}

export async function closeChat(chat: ChatSession): Promise<void> {
  await chat.close();
  const failed = chat.saveError;
  if (failed) {
    notSaved = true;
    process.stderr.write(escapeControls(`mcp-agent: chat ${chat.id} could not be saved: ${failed.message}; what was not written is lost\n`));
  } else if (chat.events.length > 0) process.stderr.write(`mcp-agent: chat ${chat.id} saved; go on with --resume ${chat.id} (or --continue)\n`);
  chat.dispose();
}

/** "Always" answers for this run, starting with the hosts of --allow-host. */
function memoryApprovals(allowHosts: readonly string[]): { has(k: string): boolean; add(k: string): void } {
  const keys = new Set<string>(allowHosts.map(hostKey));
  return { has: (k) => keys.has(k), add: (k) => void keys.add(k) };
}
