import * as vscode from 'vscode';
import Anthropic from '@anthropic-ai/sdk';
import { randomUUID } from 'node:crypto';
import { basename, join } from 'node:path';
import { Agent, type TurnInput } from '../core/agent/agent';
import { openImage } from './open-image';
import { openWorkspaceFile } from './open-file';
import { EditReview } from './edit-review';
import { restoreCheckpoint } from './checkpoint-restore';
import { ShadowGit } from '../core/checkpoint/shadow-git';
import { TurnCheckpoint } from '../core/checkpoint/turn-checkpoint';
import { approvalKey, type ApprovalStore } from '../core/agent/approval-policy';
import type { AgentOutput, AskApproval } from '../core/agent/types';
import type { McpHub } from '../core/mcp/hub';
import type { HubTool } from '../core/mcp/types';
import { ChatStore } from '../core/transcript/chat-store';
import type { ApprovalDecision, ChatEvent, ChatState, HostMessage, WebviewMessage } from '../shared/protocol';
import { readAttachments } from './attachments';
import type { Secrets } from './secrets';
import { readSettings } from './settings';

const KEY_HINT = "Run 'MCP Agent: Set API Key' to store a valid key.";
const APPROVALS_KEY = 'mcpAgent.alwaysAllowed';

export interface ChatControllerDeps {
  storeDir: string;
  hub: McpHub;
  secrets: Secrets;
  workspace: string | undefined;
  workspaceState: vscode.Memento;
  log: vscode.LogOutputChannel;
  /** Where the workspace's checkpoints (a git repository of our own) live; unset: no checkpoints. */
  checkpointsDir?: string;
}

/**
 * One chat: its events and model messages (persisted as they happen), the turn that is running,
 * and the approvals it is waiting for. The webview is only a view of it: it can come and go.
 */
export class ChatController implements vscode.Disposable {
  private store: ChatStore;
  private loaded: Promise<void> | undefined;
  private events: ChatEvent[] = [];
  private history: Anthropic.MessageParam[] = [];
  private running: AbortController | undefined;
  private readonly pendingApprovals = new Map<string, (d: ApprovalDecision) => void>();
  /** The workspace's snapshots, for turns that change files. */
  private readonly checkpoints: ShadowGit | undefined;
  /** Diffs of file changes waiting for approval; their Accept / Reject answer the same approval. */
  private readonly review = new EditReview((callId, decision) => this.pendingApprovals.get(callId)?.(decision));
  private post: ((m: HostMessage) => void) | undefined;
  /** False until the page said `ready`: messages for it wait here, or they would be lost. */
  private viewReady = false;
  private readonly queued: HostMessage[] = [];
  private hasKey = false;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly approvalsChanged = new vscode.EventEmitter<void>();
  /** Fires when an "always allow" answer is added or they are all reset. */
  readonly onDidChangeApprovals = this.approvalsChanged.event;
  private readonly viewReadyEmitter = new vscode.EventEmitter<void>();
  /** Fires each time a chat page has loaded and been given the conversation. */
  readonly onDidBecomeReady = this.viewReadyEmitter.event;

  constructor(private readonly deps: ChatControllerDeps) {
    this.checkpoints = deps.checkpointsDir && deps.workspace ? new ShadowGit(deps.checkpointsDir, deps.workspace) : undefined;
    this.store = new ChatStore(deps.storeDir);
    const unsubscribe = deps.hub.on('change', () => this.postState());
    this.disposables.push(
      { dispose: unsubscribe },
      deps.secrets.onDidChange(() => void this.refreshKey()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.postState()),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('mcpAgent') && this.postState()),
    );
  }

  /** The webview (re)connected: it will say `ready` and get the state and the whole chat. */
  connect(post: (m: HostMessage) => void): vscode.Disposable {
    this.post = post;
    this.viewReady = false;
    return { dispose: () => this.post === post && ((this.post = undefined), (this.viewReady = false)) };
  }

  /** A chat page is showing and has the conversation. */
  get isViewReady(): boolean {
    return this.viewReady;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  async handle(message: WebviewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        await this.load();
        await this.refreshKey();
        this.post?.({ type: 'replay', events: this.events });
        this.viewReady = true;
        for (const m of this.queued.splice(0)) this.post?.(m);
        this.viewReadyEmitter.fire();
        return;
      case 'send':
        return this.send(message.text, message.attachments);
      case 'stop':
        return this.stop();
      case 'retry':
        return this.retry();
      case 'restore':
        return this.restore(message.turnId);
      case 'openFile':
        return openWorkspaceFile(this.deps.workspace, message.path, message.line).catch((err: unknown) => {
          void vscode.window.showWarningMessage(`MCP Agent: ${err instanceof Error ? err.message : String(err)}`);
        });
      case 'approve':
        this.pendingApprovals.get(message.callId)?.(message.decision);
        return;
      case 'setApiKey':
        await vscode.commands.executeCommand('mcpAgent.setApiKey');
        return;
      case 'newChat':
        return this.newChat();
      case 'copy':
        await vscode.env.clipboard.writeText(message.text);
        return;
      case 'openImage':
        return openImage(join(this.deps.storeDir, '..', 'images'), message.mimeType, message.data);
    }
  }

  attach(path: string, label: string): void {
    this.toView({ type: 'attach', path, label });
    this.toView({ type: 'focus' });
  }

  focus(): void {
    this.toView({ type: 'focus' });
  }

  private toView(message: HostMessage): void {
    if (this.post && this.viewReady) this.post(message);
    else this.queued.push(message);
  }

  stop(): void {
    this.running?.abort();
  }

  async newChat(): Promise<void> {
    this.stop();
    await this.load();
    await this.store.clear();
    this.store = new ChatStore(this.deps.storeDir);
    this.events = [];
    this.history = [];
    this.post?.({ type: 'replay', events: [] });
    this.postState();
  }

  async send(text: string, attachments: string[] = []): Promise<void> {
    await this.load();
    if (this.running) {
      this.emit({ kind: 'notice', level: 'warning', text: 'A turn is still running: stop it or wait for it to finish.' });
      return;
    }
    const apiKey = await this.deps.secrets.anthropicKey();
    this.emit({ kind: 'user', id: randomUUID(), text, attachments, at: Date.now() });
    if (!apiKey) {
      this.emit({ kind: 'notice', level: 'error', text: `No Anthropic API key is set. ${KEY_HINT}`, action: 'setKey' });
      return;
    }
    const context: string[] = [];
    if (attachments.length > 0) {
      if (!this.deps.workspace) {
        this.emit({ kind: 'notice', level: 'warning', text: 'Open a folder to attach files from it.' });
      } else {
        const { blocks, errors } = await readAttachments(this.deps.workspace, attachments);
        context.push(...blocks);
        for (const e of errors) this.emit({ kind: 'notice', level: 'warning', text: e });
      }
    }
    await this.runTurn(apiKey, { text, context });
  }

  /** Restore on a turn that changed files; the checkpoint comes from the host's own record of the chat. */
  async restore(turnId: string): Promise<void> {
    const checkpoint = this.events.find((e): e is Extract<ChatEvent, { kind: 'checkpoint' }> => e.kind === 'checkpoint' && e.turnId === turnId);
    if (!checkpoint || !this.checkpoints) {
      this.emit({ kind: 'notice', level: 'warning', text: 'This turn has no checkpoint to restore.' });
      return;
    }
    if (this.running) {
      this.emit({ kind: 'notice', level: 'warning', text: 'A turn is still running: stop it before restoring files.' });
      return;
    }
    const said = await restoreCheckpoint(this.checkpoints, checkpoint);
    if (said) this.emit({ kind: 'notice', level: 'info', text: said });
  }

  /** Retry on a failed turn's notice: the same conversation asked again, with no new message. */
  async retry(): Promise<void> {
    await this.load();
    if (this.running) return;
    const apiKey = await this.deps.secrets.anthropicKey();
    if (!apiKey) {
      this.emit({ kind: 'notice', level: 'error', text: `No Anthropic API key is set. ${KEY_HINT}`, action: 'setKey' });
      return;
    }
    await this.runTurn(apiKey, { retry: true });
  }

  private async runTurn(apiKey: string, input: TurnInput): Promise<void> {
    const settings = readSettings();
    const controller = new AbortController();
    this.running = controller;
    this.postState();
    const checkpoint = this.checkpoints ? new TurnCheckpoint(this.checkpoints, (m) => this.deps.log.warn(m)) : undefined;
    let turnId: string | undefined;
    const agent = new Agent({
      client: new Anthropic({ apiKey, baseURL: settings.apiBaseUrl, maxRetries: 2 }),
      beforeChange: checkpoint ? () => checkpoint.begin() : undefined,
      host: this.deps.hub,
      model: settings.model,
      maxTokens: settings.maxTokens,
      maxIterations: settings.maxIterations,
      toolTimeoutMs: settings.toolTimeoutMs,
      workspaceName: this.deps.workspace ? basename(this.deps.workspace) : 'no folder open',
      workspaceDir: this.deps.workspace,
      approvals: this.approvalStore(),
      askApproval: this.askApproval,
      keyHint: KEY_HINT,
      history: this.history,
      onMessage: (m) => {
        this.history.push(m);
        void this.store.messages.append(m);
      },
    });
    try {
      const status = await agent.runTurn(
        input,
        (o) => {
          if (o.type === 'event' && 'turnId' in o.event) turnId ??= o.event.turnId;
          this.output(o);
        },
        controller.signal,
      );
      this.deps.log.info(`turn ended: ${status}`);
      const changed = await checkpoint?.end();
      if (changed && turnId) this.emit({ kind: 'checkpoint', turnId, ...changed });
    } catch (err) {
      this.emit({ kind: 'notice', level: 'error', text: `The turn failed: ${err instanceof Error ? err.message : String(err)}` });
    } finally {
      this.running = undefined;
      for (const resolve of this.pendingApprovals.values()) resolve('deny');
      this.pendingApprovals.clear();
      this.postState();
      if (this.store.events.lastError) {
        this.emit({ kind: 'notice', level: 'warning', text: `This chat could not be saved: ${this.store.events.lastError.message}` });
      }
    }
  }

  private readonly askApproval: AskApproval = (request, signal) =>
    new Promise<ApprovalDecision>((resolve) => {
      const settle = (decision: ApprovalDecision): void => {
        if (!this.pendingApprovals.delete(request.callId)) return;
        signal.removeEventListener('abort', onAbort);
        if (request.edit) void this.review.close(request.callId);
        this.emit({ kind: 'approval', callId: request.callId, decision });
        resolve(decision);
      };
      const onAbort = (): void => settle('deny');
      this.pendingApprovals.set(request.callId, settle);
      signal.addEventListener('abort', onAbort, { once: true });
      this.emit({
        kind: 'approval_request',
        callId: request.callId,
        server: request.tool.server,
        tool: request.tool.tool.name,
        reason: request.reason,
        preview: request.preview,
        warnings: request.warnings,
        notes: request.notes,
        alwaysKind: request.alwaysKind,
      });
      // A file change is reviewed as a diff, answered from its title bar or from the card.
      if (request.edit) {
        this.review.open(request.callId, request.edit).catch((err: unknown) => this.deps.log.warn(`could not open the diff: ${String(err)}`));
      }
    });

  private approvalStore(): ApprovalStore {
    const state = this.deps.workspaceState;
    return {
      has: (key) => state.get<string[]>(APPROVALS_KEY, []).includes(key),
      add: async (key) => {
        await state.update(APPROVALS_KEY, [...new Set([...state.get<string[]>(APPROVALS_KEY, []), key])]);
        this.approvalsChanged.fire();
      },
    };
  }

  /** Whether this tool, as defined now, runs without asking in this workspace. */
  isAlwaysAllowed(tool: Pick<HubTool, 'server' | 'tool'>): boolean {
    return this.deps.workspaceState.get<string[]>(APPROVALS_KEY, []).includes(approvalKey(tool));
  }

  async resetApprovals(): Promise<void> {
    await this.deps.workspaceState.update(APPROVALS_KEY, []);
    this.approvalsChanged.fire();
  }

  private output(out: AgentOutput): void {
    if (out.type === 'event') this.emit(out.event);
    else this.post?.(out);
  }

  private emit(event: ChatEvent): void {
    this.events.push(event);
    void this.store.events.append(event);
    this.post?.({ type: 'event', event });
  }

  /** Reads the saved chat once; a turn that was cut off by a reload is closed as interrupted. */
  private load(): Promise<void> {
    this.loaded ??= (async () => {
      const [events, messages] = await Promise.all([this.store.events.load(), this.store.messages.load()]);
      this.events = events;
      this.history = messages;
      const lastEnd = events.map((e) => e.kind).lastIndexOf('turn_end');
      const open = events.slice(lastEnd + 1).find((e): e is Extract<ChatEvent, { turnId: string }> => 'turnId' in e);
      if (open) {
        this.emit({ kind: 'turn_end', turnId: open.turnId, status: 'stopped', error: 'Interrupted: the window reloaded during this turn.' });
      }
    })();
    return this.loaded;
  }

  private async refreshKey(): Promise<void> {
    this.hasKey = !!(await this.deps.secrets.anthropicKey());
    this.postState();
  }

  state(): ChatState {
    const problems = this.deps.hub
      .statuses()
      .filter((s) => s.state === 'error')
      .map((s) => `${s.name}: ${s.error ?? 'failed'}`);
    if (!this.deps.workspace) problems.unshift('No folder is open: open one to give the agent a workspace.');
    return {
      hasKey: this.hasKey,
      trusted: vscode.workspace.isTrusted,
      busy: this.busy,
      model: readSettings().model,
      workspaceName: this.deps.workspace ? basename(this.deps.workspace) : '',
      serverProblems: problems,
    };
  }

  private postState(): void {
    this.post?.({ type: 'state', state: this.state() });
    // The Stop keybinding applies only while a turn runs.
    void vscode.commands.executeCommand('setContext', 'mcpAgent.busy', this.running !== undefined);
  }

  dispose(): void {
    this.stop();
    this.approvalsChanged.dispose();
    this.viewReadyEmitter.dispose();
    for (const d of this.disposables) d.dispose();
    this.review.dispose();
  }
}
