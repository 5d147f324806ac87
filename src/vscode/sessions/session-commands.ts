import * as vscode from 'vscode';
import type { McpHub } from '../../core/mcp/hub/hub';
import { ORCHESTRATOR, type OrchestratorClient, type SessionInfo } from '../../core/sessions/orchestrator-client';
import type { SessionsTree } from '../trees/sessions-tree';
import type { ShadowGit } from '../../core/checkpoint/shadow-git';
import { restoreRun } from './session-restore';
import { messageOf } from '../../node/error-message';

const SCHEME = 'mcp-agent-session';
const NAME = /^[a-zA-Z0-9_-]{1,60}$/;

function transcriptUri(name: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, path: `/${name}.md` });
}

function sessionOf(transcript: vscode.Uri): string {
  return transcript.path.replace(/^\//, '').replace(/\.md$/, '');
}

/** What the session commands get from a Sessions view row, or nothing from the palette. */
type Target = { session?: SessionInfo } | string | undefined;

/**
 * Session transcripts as read-only Markdown documents (their own URI scheme, so nothing asks to
 * save them), refreshed while the Sessions view refreshes.
 */
export class SessionTranscripts implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration: vscode.Disposable;

  private readonly offUpdates: () => void;

  constructor(
    private readonly client: OrchestratorClient,
    private readonly hub: McpHub,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);
    // An open transcript follows its session: the orchestrator says when `sessions://<name>` changed.
    this.offUpdates = hub.on('resourceUpdated', (server, uri) => {
      const name = server === ORCHESTRATOR ? /^sessions:\/\/([A-Za-z0-9_-]+)$/.exec(uri)?.[1] : undefined;
      if (name && name !== 'list') this.changed.fire(transcriptUri(name));
    });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const name = sessionOf(uri);
    try {
      return await this.client.transcript(name);
    } catch (err) {
      return `# ${name}\n\nThe transcript could not be read: ${messageOf(err)}`;
    }
  }

  async open(name: string): Promise<void> {
    await this.hub.subscribeResource(ORCHESTRATOR, `sessions://${name}`).catch(() => undefined);
    const doc = await vscode.workspace.openTextDocument(transcriptUri(name));
    await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  /** Closes the open tabs of the transcripts of the sessions `gone` picks: a deleted session has nothing to show. */
  async close(gone: (session: string) => boolean): Promise<void> {
    const tabs = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === SCHEME && gone(sessionOf(tab.input.uri)));
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
  }

  /** Every open transcript reads itself again. */
  refreshOpen(): void {
    for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === SCHEME) this.changed.fire(doc.uri);
  }

  dispose(): void {
    this.offUpdates();
    this.registration.dispose();
    this.changed.dispose();
  }
}

export function sessionCommands(
  client: OrchestratorClient,
  tree: SessionsTree,
  transcripts: SessionTranscripts,
  /** The workspace's snapshots, where the runs' checkpoints are (shared with the chat). */
  checkpoints: ShadowGit | undefined,
): Record<string, (target?: Target) => Promise<void>> {
  const nameOf = (target: Target): string | undefined => (typeof target === 'string' ? target : target?.session?.name);
  const pickSession = async (target: Target, title: string, filter: (s: SessionInfo) => boolean = () => true): Promise<string | undefined> => {
    const given = nameOf(target);
    if (given) return given;
    const sessions = (await client.sessions()).filter(filter);
    if (sessions.length === 0) throw new Error('There is no session to pick.');
    return (
      await vscode.window.showQuickPick(
        sessions.map((s) => ({ label: s.name, description: `${s.agent} · ${s.status}` })),
        { title },
      )
    )?.label;
  };
  /** A sub-agent turn, with its progress in a notification that can cancel it. */
  const run = (
    title: string,
    work: (opts: { signal: AbortSignal; onProgress: (p: number, t: number | undefined, m: string | undefined) => void }) => Promise<unknown>,
    name: string,
  ): Promise<void> =>
    Promise.resolve(
      vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        tree.refresh();
        try {
          await work({ signal: abort.signal, onProgress: (_p, _t, message) => message && progress.report({ message: message.slice(0, 200) }) });
          // Not awaited: the progress notification goes as soon as the turn is over.
          void vscode.window
            .showInformationMessage(`MCP Agent: session ${name} finished its turn.`, 'Open Transcript')
            .then((open) => open && transcripts.open(name));
        } catch (err) {
          // Cancel is the person's own doing, not a failure to show them.
          if (!abort.signal.aborted) throw err;
          void vscode.window.showInformationMessage(`MCP Agent: session ${name} was stopped. Restore Files to Before This Run undoes what it changed.`);
        } finally {
          tree.refresh();
          transcripts.refreshOpen();
        }
      }),
    );

  return {
    'mcpAgent.startSession': async () => {
      // The picker opens at once, busy until the orchestrator answers (it may still be starting as the window opens).
      const items = client.agents().then(({ agents, broken }) => {
        // Files that are not used are shown with why, so a definition that could not take a built-in's name is never silently gone.
        const notUsed = broken.length
          ? [{ label: 'Not used', kind: vscode.QuickPickItemKind.Separator }, ...broken.map((b) => ({ label: b.file, detail: b.why, broken: true }))]
          : [];
        return [...agents.map((a) => ({ label: a.name, detail: a.description, broken: false })), ...notUsed];
      });
      const agent = await vscode.window.showQuickPick(items, { title: 'Start a session: which agent?' });
      if (!agent) return;
      if ('broken' in agent && agent.broken) {
        void vscode.window.showWarningMessage(`MCP Agent: ${agent.label} is not used: ${agent.detail ?? ''}`);
        return;
      }
      const taken = new Set((await client.sessions()).map((s) => s.name));
      const name = await vscode.window.showInputBox({
        title: 'Session name',
        prompt: 'Letters, digits, - and _ (up to 60)',
        validateInput: (v) =>
          !NAME.test(v) ? 'Use letters, digits, - and _ only (1 to 60).' : taken.has(v) ? `A session named ${v} exists: resume it instead.` : undefined,
      });
      if (!name) return;
      const prompt = await vscode.window.showInputBox({
        title: `Task for ${agent.label} (${name})`,
        prompt: 'What should the sub-agent do?',
        validateInput: (v) => (v.trim() ? undefined : 'Say what to do.'),
      });
      if (!prompt?.trim()) return;
      await run(`Session ${name} (${agent.label})`, (opts) => client.start(name, agent.label, prompt, opts), name);
    },
    'mcpAgent.resumeSession': async (target) => {
      const name = await pickSession(target, 'Resume which session?', (s) => s.status !== 'running');
      if (!name) return;
      const prompt = await vscode.window.showInputBox({
        title: `Resume ${name}`,
        prompt: 'What next? (the sub-agent sees the whole session so far)',
        value: 'continue',
      });
      if (!prompt?.trim()) return;
      await run(`Session ${name}`, (opts) => client.resume(name, prompt, opts), name);
    },
    'mcpAgent.openSessionTranscript': async (target) => {
      const name = await pickSession(target, 'Open whose transcript?');
      if (name) await transcripts.open(name);
    },
    'mcpAgent.restoreSessionFiles': async (target) => {
      const name = await pickSession(target, 'Restore files to before a run of which session?', (s) => s.status !== 'running');
      if (!name) return;
      const said = await restoreRun(checkpoints, name, await client.runs(name));
      if (said) void vscode.window.showInformationMessage(`MCP Agent: ${said}`);
    },
    'mcpAgent.deleteSession': async (target) => {
      const name = await pickSession(target, 'Delete which session?', (s) => s.status !== 'running');
      if (!name) return;
      const yes = 'Delete';
      if (
        (await vscode.window.showWarningMessage(
          `Delete the session ${name}?`,
          { modal: true, detail: 'Its transcript cannot be brought back, nor can its runs be undone. Files its agent changed stay as they are.' },
          yes,
        )) !== yes
      )
        return;
      await client.remove(name);
      tree.refresh();
      await transcripts.close((session) => session === name);
    },
    'mcpAgent.cleanSessions': async () => {
      const yes = 'Delete All';
      if (
        (await vscode.window.showWarningMessage(
          'Delete every session that is not running?',
          { modal: true, detail: 'Their transcripts cannot be brought back.' },
          yes,
        )) !== yes
      )
        return;
      await client.cleanAll();
      tree.refresh();
      // A running session was kept: its transcript stays open.
      const left = await client.sessions().catch(() => undefined);
      if (left) await transcripts.close((session) => !left.some((s) => s.name === session));
    },
  };
}
