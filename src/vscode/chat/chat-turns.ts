import type { McpHub } from '../../core/mcp/hub/hub';
import type { ShadowGit } from '../../core/checkpoint/shadow-git';
import { readMessageAttachments } from '../../core/chat/attachments';
import { composerText } from '../../core/chat/prompt-messages';
import type { GetPromptResult } from '@modelcontextprotocol/client';
import type { PastedImage } from '../../common/protocol';
import type { Sent } from '../../common/requests';
import { STILL_RUNNING, type ChatSession } from '../../core/chat/chat-session';
import type { AppChat } from '../../core/apps/app-mounts';
import type { AppContexts } from '../../core/apps/app-context';
import { restoreCheckpoint } from './checkpoint-restore';
import { problemsText } from './mention-completions';
import { KEY_HINT, type TurnSettings } from './turn-settings';

/**
 * What the person's actions start in the open chat (a message, an MCP prompt, a retry, a file restore), and what
 * its MCP App views may start, each with the settings and key read fresh: the controller finds the chat, this
 * says what the action does in it.
 */
export interface TurnStart {
  session: ChatSession;
  turns: TurnSettings;
}

export interface MessageParts {
  text: string;
  /** `@` references: workspace files, `@problems`, resources. */
  attachments: string[];
  images: PastedImage[];
  /** What the views of the chat's MCP Apps asked the model to know, taken (once) to go before the message. */
  takeAppContext: () => string[];
}

/**
 * A message as the next turn, its references read into it; without a key it is kept, and the notice says what to do.
 * Settles once the message is in the chat (its turn started) or refused because a turn still runs: the front end
 * keeps a refused message, so nothing the person wrote is lost.
 */
export async function sendMessage({ session, turns }: TurnStart, hub: McpHub, workspace: string | undefined, parts: MessageParts): Promise<Sent> {
  await session.load();
  if (session.busy) return { sent: false, why: STILL_RUNNING };
  const config = await turns.config();
  const read = await readMessageAttachments(workspace, parts.attachments, (server, uri) => hub.readResource(server, uri), problemsText);
  // A turn may have started while the references were read: the views' context is taken only for a message that goes.
  if (session.busy) return { sent: false, why: STILL_RUNNING };
  const context = [...parts.takeAppContext(), ...read.blocks];
  if (config) for (const p of read.errors) session.notice('warning', p);
  const started = await session.start(parts.text, context, config, parts.attachments, config ? [...parts.images, ...read.images] : []);
  if ('refused' in started) return { sent: false, why: started.refused };
  if (!config) sayNoKey(session);
  return { sent: true };
}

export interface PromptPick {
  server: string;
  name: string;
  args: Record<string, string>;
  result: GetPromptResult;
}

/**
 * An MCP prompt: the person's plain text goes to the composer (`fill`) to review and edit first; a prompt with
 * the model's turns or embedded content is sent as the next message, all of it kept (ChatSession.sendPrompt),
 * since the composer could not hold it.
 */
export async function sendPrompt({ session, turns }: TurnStart, prompt: PromptPick, fill: (text: string) => void): Promise<void> {
  const text = composerText(prompt.result);
  if (text !== undefined) {
    fill(text);
    session.listing([`The prompt ${prompt.server}/${prompt.name} is in the message box: edit it if you like, then press Enter to send it.`]);
    return;
  }
  await session.load();
  const config = await turns.config();
  await session.sendPrompt(prompt, config);
  if (!config) sayNoKey(session);
}

/** Retry on a failed turn's notice: the same conversation asked again, with no new message. */
export async function retryTurn({ session, turns }: TurnStart): Promise<void> {
  if (session.busy) return;
  const config = await turns.config();
  if (!config) {
    sayNoKey(session);
    return;
  }
  await session.retry(config);
}

/** Restore on a turn that changed files; the checkpoint comes from the host's own record of the chat. */
export async function restoreTurn(session: ChatSession, checkpoints: ShadowGit | undefined, turnId: string): Promise<void> {
  const checkpoint = session.checkpoint(turnId);
  if (!checkpoint || !checkpoints) {
    session.notice('warning', 'This turn has no checkpoint to restore.');
    return;
  }
  if (session.busy) {
    session.notice('warning', 'A turn is still running: stop it before restoring files.');
    return;
  }
  const said = await restoreCheckpoint(checkpoints, checkpoint);
  if (said) session.notice('info', said);
}

/**
 * The chat as its MCP App views see it: its events, its approval path, and its turns for a view's message. What a
 * view asks the model to know is kept only while `isOpen` (the chat is still the one shown).
 */
export function appChat({ session, turns }: TurnStart, contexts: AppContexts, isOpen: () => boolean): AppChat {
  return {
    id: session.id,
    get events() {
      return session.events;
    },
    callForApp: async (tool, input, signal) => session.callForApp(tool, input, signal, (await turns.config())?.toolTimeoutMs),
    setAppContext: (callId, server, text) => {
      if (isOpen()) contexts.set(callId, server, text);
    },
    sendFromApp: async (server, text) => {
      const config = await turns.config();
      if (!config) throw new Error('No API key is set: the message was not sent.');
      await session.sendFromApp(server, text, config);
    },
  };
}

/** The notice a turn gets when no key is set; its action opens Set API Key, and it goes once a key is set. */
function sayNoKey(session: ChatSession): void {
  session.notice('error', `No Anthropic API key is set. ${KEY_HINT}`, 'setKey');
}
