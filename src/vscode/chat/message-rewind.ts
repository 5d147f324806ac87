import * as vscode from 'vscode';
import type { ShadowGit } from '../../core/checkpoint/shadow-git';
import { PASTED_IMAGE, type ChatSession, type TurnConfig } from '../../core/chat/chat-session';
import type { RewindMode } from '../../core/chat/message-spans';
import type { ChatEvent, PastedImage } from '../../common/protocol';
import type { GoneBack } from '../../common/requests';
import { listed } from './checkpoint-restore';

const VERB: Record<RewindMode, string> = { edit: 'Resend', regenerate: 'Regenerate' };

export interface RewindDeps {
  session: ChatSession;
  /** The workspace's checkpoints: the files the dropped turns changed can be put back. */
  checkpoints: ShadowGit | undefined;
  /** Read for this turn; none: no key. */
  config: TurnConfig | undefined;
  /** Sends a message as the composer does (attachments read again, as they are now). */
  send: (text: string, attachments: string[], images: PastedImage[]) => Promise<unknown>;
}

/**
 * Edit and resend (`edit`, with the new text) or regenerate an answer: says what would go (later messages)
 * and offers to restore the files the turns from there on changed, then takes the chat back to the message
 * and sends the new text, with the message's attachments read again and its pasted images, or asks for the
 * answer again. The turn is started, not awaited: the page hears the chat's events as usual.
 */
export async function goBack(deps: RewindDeps, id: string, mode: RewindMode, text = ''): Promise<GoneBack> {
  const { session } = deps;
  if (!deps.config) return { done: false, why: 'No Anthropic API key is set: set one first (MCP Agent: Set API Key).' };
  const plan = await session.rewindPlan(id, mode);
  if ('why' in plan) return { done: false, why: plan.why };
  const answer = await ask(deps.checkpoints, plan.dropped, mode);
  if (!answer) return { done: false };
  const message = session.events.find((e): e is Extract<ChatEvent, { kind: 'user' }> => e.kind === 'user' && e.id === id);
  const images = mode === 'edit' ? session.pastedImages(id) : [];
  const why = await session.rewind(id, mode);
  if (why) return { done: false, why };
  if (answer.restore && deps.checkpoints) session.notice('info', await restored(deps.checkpoints, plan.dropped));
  if (mode === 'edit')
    void deps.send(
      text,
      (message?.attachments ?? []).filter((a) => !a.startsWith(`${PASTED_IMAGE} `)),
      images,
    );
  else void session.retry(deps.config);
  return { done: true };
}

function checkpointsOf(dropped: readonly ChatEvent[]): Array<Extract<ChatEvent, { kind: 'checkpoint' }>> {
  return dropped.filter((e): e is Extract<ChatEvent, { kind: 'checkpoint' }> => e.kind === 'checkpoint');
}

/**
 * Asks only when something is at stake: files the dropped turns changed (restore them or keep them), or later
 * messages that go with them. Undefined: the person said no.
 */
async function ask(git: ShadowGit | undefined, dropped: readonly ChatEvent[], mode: RewindMode): Promise<{ restore: boolean } | undefined> {
  const later = dropped.filter((e) => e.kind === 'user').length - (mode === 'edit' ? 1 : 0);
  const goes = later > 0 ? `The ${later} later message${later === 1 ? '' : 's'} and ${later === 1 ? 'its answer go' : 'their answers go'} from the chat.` : '';
  const checkpoints = checkpointsOf(dropped);
  const plan = git && checkpoints.length > 0 ? await git.planUndo(checkpoints) : { restore: [], skip: [] };
  const verb = VERB[mode];
  if (plan.restore.length > 0) {
    const n = plan.restore.length;
    const detail = [
      `Restore them to how they were before this message (a file created since is removed), or keep them as they are:\n${listed(plan.restore)}`,
      plan.skip.length > 0 ? `Left as they are either way, because they changed again after the agent's turns:\n${listed(plan.skip)}` : '',
      goes,
    ]
      .filter(Boolean)
      .join('\n\n');
    const restore = `Restore Files and ${verb}`;
    const keep = `${verb}, Keep Files`;
    const picked = await vscode.window.showWarningMessage(
      `The agent changed ${n} file${n === 1 ? '' : 's'} since this message.`,
      { modal: true, detail },
      restore,
      keep,
    );
    return picked === restore ? { restore: true } : picked === keep ? { restore: false } : undefined;
  }
  if (!goes) return { restore: false };
  const picked = await vscode.window.showWarningMessage(`${verb} from this message?`, { modal: true, detail: goes }, verb);
  return picked === verb ? { restore: false } : undefined;
}

async function restored(git: ShadowGit, dropped: readonly ChatEvent[]): Promise<string> {
  try {
    const done = await git.undo(checkpointsOf(dropped));
    const n = done.restored.length;
    const parts = [`Restored ${n} file${n === 1 ? '' : 's'} to before the message: ${done.restored.join(', ')}.`];
    if (done.skipped.length > 0) parts.push(`Left as they are (changed since by someone else): ${done.skipped.join(', ')}.`);
    return parts.join(' ');
  } catch (err) {
    return `The files could not be restored: ${err instanceof Error ? err.message : String(err)}`;
  }
}
