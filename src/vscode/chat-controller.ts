import * as vscode from 'vscode';
import { basename } from 'node:path';
import { openImage } from './open-image';
import { openWorkspaceFile } from './open-file';
import { EditReview } from './edit-review';
import { restoreCheckpoint } from './checkpoint-restore';
import { ShadowGit } from '../core/checkpoint/shadow-git';
import type { McpHub } from '../core/mcp/hub/hub';
import type { ProposedEdit } from '../core/tool-call/proposed-edit';
import type { HubTool } from '../core/mcp/types';
import type { ChatHistory } from '../core/chat/chat-history';
import { newChatId, newMeta, type ChatMeta } from '../core/chat/chat-meta';
import { ChatSession } from '../core/chat/chat-session';
import { pageEvent, pageEvents } from '../core/chat/chat-format';
import { composerText } from '../core/chat/prompt-messages';
import type { ModelCatalog } from '../core/agent/model-catalog';
import type { ChatState, HostMessage, PastedImage, WebviewMessage } from '../shared/protocol';
import { answer, type GoneBack, type RequestHandlers } from '../shared/requests';
import { goBack } from './message-rewind';
import type { RewindMode } from '../core/chat/message-spans';
import { readMessageAttachments } from '../core/chat/attachments';
import { modelToolHost } from '../core/tool-offer/tool-choices';
import type { ToolHost } from '../core/agent/types';
import type { WorkspaceToolChoices } from './tool-choices-store';
import { completeSlash } from '../core/chat/slash-completions';
import type { GetPromptResult } from '@modelcontextprotocol/client';
import { chatSlash } from './chat-slash';
import { completeMentions, problemsText } from './mention-completions';
import { ToolApprovals } from './tool-approvals';
import { KEY_HINT, TurnSettings } from './turn-settings';
import { ChatViews, type ViewConnection, type ViewKind } from './chat-views';
import type { Secrets } from './secrets';
import type { AskSurface, ClientAsks } from '../core/chat/client-asks';
import type { SamplingBroker } from '../core/sampling/sampling-broker';
import { messageOf } from '../common/error-message';
import { AppViews } from './app-views';
import type { AppChat } from '../core/apps/app-mounts';
import { AppContexts } from '../core/apps/app-context';

export interface ChatControllerDeps {
  history: ChatHistory;
  /** Where images opened from the chat are written (the extension's storage). */
  imagesDir: string;
  hub: McpHub;
  secrets: Secrets;
  workspace: string | undefined;
  workspaceState: vscode.Memento;
  log: vscode.LogOutputChannel;
  /** Where the workspace's checkpoints (a git repository of our own) live; unset: no checkpoints. */
  checkpointsDir?: string;
  /** Runs once before the first chat is opened (e.g. bringing an older chat into the history). */
  beforeFirstOpen?: () => Promise<unknown>;
  /** What servers ask the person (sampling, elicitation): shown as cards in this chat. */
  asks?: ClientAsks;
  /** Servers' sampling, for the budgets "always" gave them. */
  sampling?: SamplingBroker;
  /** Tools the person turned off or pinned for the model in this workspace. */
  toolChoices: WorkspaceToolChoices;
  /** The extension's version, as the host names itself to MCP App views. */
  version?: string;
  /** The extension's folder: an MCP App view's own tab loads its page from there. */
  extensionUri?: vscode.Uri;
}

/**
 * The chat as VS Code shows it: one ChatSession open at a time (the conversation itself lives
 * there, in src/core), a webview that comes and goes, settings and the key read for each turn,
 * file changes reviewed in a diff editor, and the history of chats to switch between.
 */
export class ChatController implements vscode.Disposable {
  private session: ChatSession | undefined;
  private opening: Promise<ChatSession> | undefined;
  private unsubscribe: Array<() => void> = [];
  /** The workspace's snapshots, for turns that change files. */
  private readonly checkpoints: ShadowGit | undefined;
  /** Diffs of file changes waiting for approval; their Accept / Reject answer the same approval. */
  private readonly review = new EditReview((callId, decision) => this.session?.answer(callId, decision));
  /** File changes waiting for approval, by call: "Review changes" opens their diff again. */
  private readonly pendingEdits = new Map<string, ProposedEdit>();
  /** The pages showing the chat (side bar, editor tab). */
  private readonly views = new ChatViews();
  private hasKey = false;
  /** What the running turn waits for now, for a page that loads mid-turn (it would otherwise show only "Working…"). */
  private activity: Extract<HostMessage, { type: 'activity' }> | undefined;
  private pages: { visible(): boolean; reveal(): Promise<void> } | undefined;
  /** What each turn runs with: settings, key, model. */
  private readonly turns: TurnSettings;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly approvals: ToolApprovals;
  /** The tools as the model sees them: the hub's and the host's own, under the person's choices. */
  readonly modelTools: ToolHost;
  /** Fires when an "always allow" answer is added or they are all reset. */
  readonly onDidChangeApprovals: vscode.Event<void>;
  /** Fires each time a chat page has loaded and been given the conversation. */
  readonly onDidBecomeReady = this.views.onDidBecomeReady;
  private readonly chatsChanged = new vscode.EventEmitter<void>();
  /** Fires when a chat is created, renamed, deleted, opened or its totals change. */
  readonly onDidChangeChats = this.chatsChanged.event;
  /** MCP App views under tool cards (app-views.ts). */
  readonly apps: AppViews;
  /** What the open chat's views asked the model to know: sent with the person's next message. */
  private readonly appContexts = new AppContexts();

  constructor(private readonly deps: ChatControllerDeps) {
    this.approvals = new ToolApprovals(deps.workspaceState);
    this.apps = new AppViews(deps.hub, deps.version ?? '0.0.0', deps.log, deps.extensionUri);
    this.modelTools = modelToolHost(deps.hub, deps.toolChoices);
    this.turns = new TurnSettings(deps.secrets, (line) => deps.log.warn(line));
    this.onDidChangeApprovals = this.approvals.onDidChange;
    this.checkpoints = deps.checkpointsDir && deps.workspace ? new ShadowGit(deps.checkpointsDir, deps.workspace) : undefined;
    deps.asks?.attach(this.askSurface());
    const unsubscribe = deps.hub.on('change', () => this.postState());
    this.disposables.push(
      { dispose: unsubscribe },
      deps.secrets.onDidChange(() => void this.refreshKey().then(() => this.refreshModels(true))),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.postState()),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('mcpAgent') && this.postState()),
    );
  }

  /** A chat page (re)connected: it will say `ready` and get the state and the whole chat. */
  connect(kind: ViewKind, post: (m: HostMessage) => void): ViewConnection & vscode.Disposable {
    return this.views.connect(kind, post);
  }

  /** A chat page is showing and has the conversation. */
  get isViewReady(): boolean {
    return this.views.anyReady;
  }

  get busy(): boolean {
    return this.session?.busy ?? false;
  }

  /** The open chat's id (undefined until one is opened). */
  get currentChatId(): string | undefined {
    return this.session?.id;
  }

  /** What the chat page may ask and get an answer to (shared/requests.ts). */
  private readonly requests: RequestHandlers = {
    completeMentions: ({ query }) => (this.deps.workspace ? completeMentions(this.deps.workspace, query) : []),
    completeSlash: ({ text }) => completeSlash(text, this.deps.hub),
    editMessage: ({ id, text }) => this.goBack(id, 'edit', text),
    regenerate: ({ id }) => this.goBack(id, 'regenerate'),
  };

  /** Edit and resend, or regenerate an answer (message-rewind.ts). */
  private async goBack(id: string, mode: RewindMode, text?: string): Promise<GoneBack> {
    const session = await this.current();
    const config = await this.turns.config();
    return goBack({ session, checkpoints: this.checkpoints, config, send: (t, a, i) => this.send(t, a, i) }, id, mode, text);
  }

  async handle(message: WebviewMessage, from: ViewConnection): Promise<void> {
    switch (message.type) {
      case 'ready': {
        const session = await this.current();
        await session.load();
        await this.refreshKey();
        void this.refreshModels();
        from.post({ type: 'state', state: this.state() });
        from.post({ type: 'replay', events: pageEvents(session.events) });
        for (const m of this.deps.asks?.pending() ?? []) from.post(m);
        if (session.busy && this.activity) from.post(this.activity);
        this.views.markReady(from);
        return;
      }
      case 'send':
        return this.send(message.text, message.attachments, message.images);
      case 'stop':
        return this.stop();
      case 'retry':
        return this.retry();
      case 'restore':
        return this.restore(message.turnId);
      case 'openFile':
        return openWorkspaceFile(this.deps.workspace, message.path, message.line).catch((err: unknown) => {
          void vscode.window.showWarningMessage(`MCP Agent: ${messageOf(err)}`);
        });
      case 'approve':
        this.session?.answer(message.callId, message.decision);
        return;
      case 'setApiKey':
        await vscode.commands.executeCommand('mcpAgent.setApiKey');
        return;
      case 'newChat':
        return this.newChat();
      case 'reviewEdit': {
        const edit = this.pendingEdits.get(message.callId);
        if (edit) await this.review.open(message.callId, edit);
        return;
      }
      case 'request':
        from.post(await answer(message, this.requests));
        return;
      case 'slash':
        return this.slash(message.text);
      case 'pickModel':
        await vscode.commands.executeCommand('mcpAgent.pickModel');
        return;
      case 'copy':
        await vscode.env.clipboard.writeText(message.text);
        return;
      case 'openImage':
        return openImage(this.deps.imagesDir, message.mimeType, message.data);
      case 'answerAsk':
        this.deps.asks?.answer(message.askId, message.answer);
        return;
      case 'appMount':
      case 'app':
      case 'appContext':
      case 'appUnmount':
      case 'appFullScreen':
        return this.apps.handle(message, from, () => this.appChat());
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
    this.views.toComposer(message);
  }

  stop(): void {
    this.session?.stop();
  }

  /** Starts a new chat; the one open stays in the history (unless it is still empty: then it is the new one). */
  async newChat(): Promise<void> {
    const session = await this.current();
    if (session.events.length === 0 && !session.busy) return;
    session.stop();
    this.show(this.makeSession(newMeta(newChatId(), this.model)));
  }

  /** Opens a chat from the history; a turn running in the one open is stopped and finishes there. */
  async openChat(id: string): Promise<void> {
    if (this.session?.id === id) return;
    const meta = await this.deps.history.get(id);
    if (!meta) throw new Error('That chat no longer exists.');
    this.session?.stop();
    const session = this.makeSession(meta);
    await session.load();
    this.show(session);
  }

  /** Renames a chat; the open one through its session, so its next save keeps the new title. */
  async renameChat(id: string, title: string): Promise<void> {
    if (this.session?.id === id) this.session.rename(title);
    else await this.deps.history.rename(id, title);
    this.chatsChanged.fire();
  }

  /** Deletes a chat; deleting the open one opens a fresh chat in its place. */
  async deleteChat(id: string): Promise<void> {
    if (this.session?.id === id) {
      this.session.stop();
      await this.session.flush();
      this.show(this.makeSession(newMeta(newChatId(), this.model)));
    }
    await this.deps.history.delete(id);
    this.chatsChanged.fire();
  }

  async send(text: string, attachments: string[] = [], images: PastedImage[] = []): Promise<void> {
    const session = await this.current();
    await session.load();
    if (session.busy) {
      session.notice('warning', 'A turn is still running: stop it or wait for it to finish.');
      return;
    }
    const config = await this.turns.config();
    const read = await readMessageAttachments(this.deps.workspace, attachments, (server, uri) => this.deps.hub.readResource(server, uri), problemsText);
    const context = [...this.appContexts.take(), ...read.blocks];
    const problems = read.errors;
    images = [...images, ...read.images];
    if (!config) {
      await session.send(text, context, undefined, attachments);
      sayNoKey(session);
      return;
    }
    for (const p of problems) session.notice('warning', p);
    await session.send(text, context, config, attachments, images);
  }

  /** A slash command from the composer: its answer is shown in the chat, nothing is sent to the model as text. */
  async slash(text: string): Promise<void> {
    const session = await this.current();
    await session.load();
    await chatSlash(text, {
      hub: this.deps.hub,
      tools: { host: this.modelTools, choices: this.deps.toolChoices },
      say: (lines) => session.listing(lines),
      newChat: () => this.newChat(),
      attach: (ref, label) => this.attach(ref, label),
      sendPrompt: (prompt) => this.sendPrompt(prompt.server, prompt.name, prompt.args, prompt.result),
    });
  }

  /**
   * An MCP prompt: the person's plain text goes to the composer to review and edit first; a prompt
   * with the model's turns or embedded content is sent as the next message, all of it kept
   * (ChatSession.sendPrompt), since the composer could not hold it.
   */
  async sendPrompt(server: string, name: string, args: Record<string, string>, result: GetPromptResult): Promise<void> {
    const session = await this.current();
    const text = composerText(result);
    if (text !== undefined) {
      this.toView({ type: 'fill', text });
      session.listing([`The prompt ${server}/${name} is in the message box: edit it if you like, then press Enter to send it.`]);
      return;
    }
    await session.load();
    const config = await this.turns.config();
    await session.sendPrompt({ server, name, args, result }, config);
    if (!config) sayNoKey(session);
  }

  /** Restore on a turn that changed files; the checkpoint comes from the host's own record of the chat. */
  async restore(turnId: string): Promise<void> {
    const session = await this.current();
    const checkpoint = session.checkpoint(turnId);
    if (!checkpoint || !this.checkpoints) {
      session.notice('warning', 'This turn has no checkpoint to restore.');
      return;
    }
    if (session.busy) {
      session.notice('warning', 'A turn is still running: stop it before restoring files.');
      return;
    }
    const said = await restoreCheckpoint(this.checkpoints, checkpoint);
    if (said) session.notice('info', said);
  }

  /** Retry on a failed turn's notice: the same conversation asked again, with no new message. */
  async retry(): Promise<void> {
    const session = await this.current();
    if (session.busy) return;
    const config = await this.turns.config();
    if (!config) {
      sayNoKey(session);
      return;
    }
    await session.retry(config);
  }

  /** Reads the model list again (a new key may see other models) and what "automatic" means now. */
  async refreshModels(force = false): Promise<void> {
    await this.turns.refreshModels(force);
    this.postState();
  }

  /** The model the next turn uses: the one chosen, else the newest Sonnet. */
  get model(): string {
    return this.turns.model;
  }

  get models(): ModelCatalog {
    return this.turns.models;
  }

  /** The open chat: at first the workspace's most recent one, or a new one. */
  private current(): Promise<ChatSession> {
    if (this.session) return Promise.resolve(this.session);
    this.opening ??= (async () => {
      await this.deps.beforeFirstOpen?.();
      const latest = await this.deps.history.latest().catch(() => undefined);
      const session = this.makeSession(latest ?? newMeta(newChatId(), this.model));
      this.show(session, false);
      return session;
    })();
    return this.opening;
  }

  private makeSession(meta: ChatMeta): ChatSession {
    return new ChatSession({
      meta,
      store: this.deps.history.store(meta.id),
      host: this.modelTools,
      workspace: this.deps.workspace,
      approvals: this.approvals,
      checkpoints: this.checkpoints,
      log: (m) => this.deps.log.info(m),
      onApprovalShown: (request) => {
        // A file change is reviewed as a diff, answered from its title bar or from the card.
        if (!request.edit) return;
        this.pendingEdits.set(request.callId, request.edit);
        this.review.open(request.callId, request.edit).catch((err: unknown) => this.deps.log.warn(`could not open the diff: ${String(err)}`));
      },
      onApprovalSettled: (request) => {
        if (!request.edit) return;
        this.pendingEdits.delete(request.callId);
        void this.review.close(request.callId);
      },
    });
  }

  /** Makes `session` the one shown: only its events reach the page from now on. */
  private show(session: ChatSession, replay = true): void {
    for (const off of this.unsubscribe.splice(0)) off();
    this.appContexts.clear();
    this.session = session;
    this.activity = undefined;
    this.opening = Promise.resolve(session);
    this.unsubscribe.push(
      session.on('event', (event) => {
        this.views.broadcast({ type: 'event', event: pageEvent(event) });
        this.apps.onEvent(event);
      }),
      session.on('transient', (output) => {
        if (output.type === 'activity') this.activity = output;
        this.views.broadcast(output);
      }),
      session.on('busy', (busy) => {
        if (!busy) this.activity = undefined;
        this.postState();
      }),
      session.on('rewound', (events) => this.views.broadcast({ type: 'replay', events: pageEvents(events) })),
      session.on('meta', () => {
        this.postState();
        this.chatsChanged.fire();
      }),
    );
    if (replay) this.views.broadcast({ type: 'replay', events: pageEvents(session.events) });
    this.postState();
    this.chatsChanged.fire();
  }

  /** The open chat as its views see it: its events, its approval path, and its turns for a view's message. */
  private async appChat(): Promise<AppChat> {
    const session = await this.current();
    return {
      id: session.id,
      get events() {
        return session.events;
      },
      callForApp: async (tool, input, signal) => session.callForApp(tool, input, signal, (await this.turns.config())?.toolTimeoutMs),
      setAppContext: (callId, server, text) => {
        if (this.session === session) this.appContexts.set(callId, server, text);
      },
      sendFromApp: async (server, text) => {
        const config = await this.turns.config();
        if (!config) throw new Error('No API key is set: the message was not sent.');
        await session.sendFromApp(server, text, config);
      },
    };
  }

  /** Where servers' asks are shown: every chat page, with the chat's own key, models and totals. */
  private askSurface(): AskSurface {
    return {
      post: (message) => this.views.broadcast(message),
      hasPage: () => this.views.anyReady && (this.pages?.visible() ?? true),
      reveal: async () => (this.pages ? this.pages.reveal() : void (await vscode.commands.executeCommand('mcpAgent.chat.focus'))),
      client: () => this.turns.client(),
      models: () => this.turns.models.list(),
      model: () => this.turns.model,
      countUsage: (usage) => void this.current().then((session) => session.countUsage(usage)),
      budgetsChanged: () => this.postState(),
    };
  }

  /**
   * Where the chat's pages are on screen, for servers' questions: a chat loaded in the side bar but hidden
   * behind another view would leave a question waiting unseen.
   */
  showPagesWith(pages: { visible(): boolean; reveal(): Promise<void> }): void {
    this.pages = pages;
  }

  /** Whether this tool, as defined now, runs without asking in this workspace. */
  isAlwaysAllowed(tool: Pick<HubTool, 'server' | 'tool'>): boolean {
    return this.approvals.isAlwaysAllowed(tool);
  }

  resetApprovals(): Promise<void> {
    return this.approvals.reset();
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
    const meta = this.session?.info;
    const budgets = this.deps.sampling?.budgetUse() ?? [];
    return {
      hasKey: this.hasKey,
      trusted: vscode.workspace.isTrusted,
      busy: this.busy,
      model: this.model,
      workspaceName: this.deps.workspace ? basename(this.deps.workspace) : '',
      serverProblems: problems,
      ...(meta ? { chat: { title: meta.title, usage: meta.usage, unpricedTurns: meta.unpricedTurns ?? 0 } } : {}),
      ...(budgets.length > 0 ? { samplingBudgets: budgets } : {}),
    };
  }

  private postState(): void {
    this.views.broadcast({ type: 'state', state: this.state() });
    // The Stop keybinding applies only while a turn runs.
    void vscode.commands.executeCommand('setContext', 'mcpAgent.busy', this.busy);
  }

  dispose(): void {
    this.apps.dispose();
    this.session?.dispose();
    for (const off of this.unsubscribe.splice(0)) off();
    this.approvals.dispose();
    this.views.dispose();
    this.chatsChanged.dispose();
    for (const d of this.disposables) d.dispose();
    this.review.dispose();
  }
}

/** The notice a turn gets when no key is set; its action opens Set API Key, and it goes once a key is set. */
function sayNoKey(session: ChatSession): void {
  session.notice('error', `No Anthropic API key is set. ${KEY_HINT}`, 'setKey');
}
