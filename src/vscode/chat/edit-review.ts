import * as vscode from 'vscode';
import type { ProposedEdit } from '../../core/tool-call/proposed-edit';
import type { ApprovalDecision } from '../../common/protocol';

/** The URI scheme of the proposed side of a review diff (and of the empty side of a new file). */
const PROPOSED_SCHEME = 'mcp-agent-proposed';

/**
 * A file change waiting for approval, shown in VS Code's diff editor: the file as it is against
 * the content the agent proposes (a new file against empty). Accept and Reject sit in the diff's
 * title bar and answer the same approval as the card's buttons; either way the diff closes.
 */
export class EditReview implements vscode.Disposable {
  private readonly contents = new Map<string, string>();
  /** File changes waiting for approval, by call: "Review changes" on the card opens their diff again. */
  private readonly pending = new Map<string, ProposedEdit>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly decide: (callId: string, decision: ApprovalDecision) => void) {
    const contents = this.contents;
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, {
        provideTextDocumentContent: (uri) => contents.get(uri.toString()) ?? '',
      }),
      vscode.commands.registerCommand('mcpAgent.acceptEdit', (uri?: vscode.Uri) => this.answer(uri, 'once')),
      vscode.commands.registerCommand('mcpAgent.rejectEdit', (uri?: vscode.Uri) => this.answer(uri, 'deny')),
    );
  }

  /** An approval of a file change is shown: its diff opens, answered from its title bar or from the card. */
  shown(callId: string, edit: ProposedEdit, warn: (line: string) => void): void {
    this.pending.set(callId, edit);
    this.open(callId, edit).catch((err: unknown) => warn(`could not open the diff: ${String(err)}`));
  }

  /** "Review changes" on a card still waiting. */
  async reopen(callId: string): Promise<void> {
    const edit = this.pending.get(callId);
    if (edit) await this.open(callId, edit);
  }

  /** Opens the diff beside the chat without taking the focus from it. */
  private async open(callId: string, edit: ProposedEdit): Promise<void> {
    const proposed = proposedUri(callId, edit.rel, 'proposed');
    this.contents.set(proposed.toString(), edit.after);
    let original = vscode.Uri.file(edit.abs);
    if (edit.before === undefined) {
      original = proposedUri(callId, edit.rel, 'empty');
      this.contents.set(original.toString(), '');
    }
    const title = `${edit.rel} (${edit.before === undefined ? 'new file' : 'proposed change'})`;
    await vscode.commands.executeCommand('vscode.diff', original, proposed, title, { preview: true, preserveFocus: true });
  }

  /** The approval was answered (here, in the card, or by Stop): its diff goes. */
  async close(callId: string): Promise<void> {
    this.pending.delete(callId);
    for (const key of [...this.contents.keys()]) if (vscode.Uri.parse(key).query.startsWith(`${callId}&`)) this.contents.delete(key);
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => {
        const input = t.input;
        return input instanceof vscode.TabInputTextDiff && input.modified.scheme === PROPOSED_SCHEME && input.modified.query.startsWith(`${callId}&`);
      });
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
  }

  private answer(uri: vscode.Uri | undefined, decision: ApprovalDecision): void {
    const target = uri ?? activeProposed();
    if (target?.scheme !== PROPOSED_SCHEME) throw new Error('Open a proposed change of the agent first.');
    const [callId = ''] = target.query.split('&');
    this.decide(callId, decision);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** mcp-agent-proposed:/<rel>?<callId>&<side>: the file name shows in the tab; the query says whose it is. */
function proposedUri(callId: string, rel: string, side: 'proposed' | 'empty'): vscode.Uri {
  return vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${rel}`, query: `${callId}&${side}` });
}

function activeProposed(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputTextDiff ? input.modified : undefined;
}
