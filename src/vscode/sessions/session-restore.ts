import * as vscode from 'vscode';
import type { ApprovalRequest } from '../../core/agent/types';
import type { ShadowGit } from '../../core/checkpoint/shadow-git';
import type { RunCheckpoint } from '../../core/sessions/run-checkpoints';
import type { ApprovalDecision } from '../../common/protocol';
import { restoreCheckpoint } from '../chat/checkpoint-restore';

/**
 * "Restore Files to Before This Run": the session's run to undo (the last one, or the one picked when there are
 * several), then the chat's own Restore (checkpoint-restore.ts): the files it would change, asked, restored.
 * Returns what to tell the person, or undefined when they said no.
 */
export async function restoreRun(git: ShadowGit | undefined, session: string, runs: readonly RunCheckpoint[]): Promise<string | undefined> {
  if (!git) return 'There are no checkpoints here: open a folder to have them.';
  if (runs.length === 0)
    return `No run of ${session} has a checkpoint: none was started or resumed from the Sessions view and changed a file. (A run the chat's agent started is undone from the chat.)`;
  const run = runs.length === 1 ? runs[0] : await pickRun(session, runs);
  return run ? restoreCheckpoint(git, run.checkpoint, 'run') : undefined;
}

async function pickRun(session: string, runs: readonly RunCheckpoint[]): Promise<RunCheckpoint | undefined> {
  const items = runs.map((run, i) => {
    const n = run.checkpoint.files.length;
    return {
      label: `${i === 0 ? 'Last run' : `${i + 1} runs back`}: ${run.kind === 'start' ? 'started' : 'resumed'} ${new Date(run.at).toLocaleString()}`,
      description: `${n} file${n === 1 ? '' : 's'} changed`,
      detail: run.prompt,
      run,
    };
  });
  return (await vscode.window.showQuickPick(items, { title: `Restore files to before which run of ${session}?` }))?.run;
}

/**
 * What a Sessions view command was not itself consent for: data leaving for a place nobody named (the egress guard).
 * Asked as a modal dialog, since the view has no chat to show a card in.
 */
export async function askEgress(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
  const once = 'Allow Once';
  const always = request.alwaysKind === 'host' && request.hosts?.length ? `Always Allow ${request.hosts.join(', ')}` : undefined;
  const detail = [...request.warnings, request.preview ?? ''].filter(Boolean).join('\n\n');
  const answer = await vscode.window.showWarningMessage(
    `${request.reason} (${request.tool.server} · ${request.tool.tool.name})?`,
    { modal: true, detail },
    ...(always ? [once, always] : [once]),
  );
  if (signal.aborted) return 'deny';
  return answer === once ? 'once' : answer !== undefined && answer === always ? 'always' : 'deny';
}
