import * as vscode from 'vscode';
import { openImage } from './open-image';
import { openWorkspaceFile } from './open-file';
import { EditReview } from './edit-review';
import type { ShadowGit } from '../../core/checkpoint/shadow-git';
import type { McpHub } from '../../core/mcp/hub/hub';
import type { HubTool } from '../../core/mcp/types';
import type { ChatHistory } from '../../core/chat/chat-history';
import type { ChatMeta } from '../../core/chat/chat-meta';
import { ChatSession } from '../../core/chat/chat-session';
import { pageEvents } from '../../core/chat/chat-format';
import type { ModelCatalog } from '../../core/agent/model-catalog';
import type { ChatState, HostMessage, PastedImage, WebviewMessage } from '../../common/protocol';
import { answer, type GoneBack, type RequestHandlers, type Sent } from '../../common/requests';
import { goBack } from './message-rewind';
import type { RewindMode } from '../../core/chat/message-spans';
import { modelToolHost } from '../../core/tool-offer/tool-choices';
import type { ToolHost } from '../../core/agent/types';
import type { WorkspaceToolChoices } from '../servers/tool-choices-store';
import { completeSlash } from '../../core/chat/slash-completions';
import type { GetPromptResult } from '@modelcontextprotocol/client';
import { chatSlash } from './chat-slash';
import { completeMentions } from './mention-completions';
import { appChat, restoreTurn, retryTurn, sendMessage, sendPrompt, type TurnStart } from './chat-turns';
import { ToolApprovals } from './tool-approvals';
import { TurnSettings } from './turn-settings';
import { chatState } from './chat-state';
import { ChatViews, type ViewConnection, type ViewKind } from './chat-views';
import { OpenChat } from './open-chat';
import type { Secrets } from '../secrets';
import type { AskSurface, ClientAsks } from '../../core/chat/client-asks';
import type { SamplingBroker } from '../../core/sampling/sampling-broker';
import { messageOf } from '../../node/error-message';
import { AppViews } from './app-views';
import type { AppChat } from '../../core/apps/app-mounts';
import { AppContexts } from '../../core/apps/app-context';

export interface ChatControllerDeps {
  history: ChatHistory;
  /** Where images opened from the chat are written (the extension's storage). */
  imagesDir: string;
  hub: McpHub;
  secrets: Secrets;
  workspace: string | undefined;
  workspaceState: vscode.Memento;
  log: vscode.LogOutputChannel;
  /** The workspace's checkpoints (a git repository of our own, shared with the Sessions view's runs); unset: no checkpoints. */
  checkpoints?: ShadowGit;
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
  /** Resolves once every server config so far is applied: a view of a reopened chat waits for its server. */
  serversApplied?: () => Promise<void>;
}

/**
 * The chat as VS Code shows it: one ChatSession open at a time (the conversation itself lives
 * there, in src/core), a webview that comes and goes, settings and the key read for each turn,
 * file changes reviewed in a diff editor, and the history of chats to switch between.
 */
export class ChatController implements vscode.Disposable {
  /** Which chat is open (open-chat.ts). */
  private readonly chat: OpenChat;
  /** The workspace's snapshots, for turns that change files. */
  private readonly checkpoints: ShadowGit | undefined;
  /** Diffs of file changes waiting for approval; their Accept / Reject answer the same approval. */
  private readonly review = new EditReview((callId, decision) => this.chat.session?.answer(callId, decision));
  /** The pages showing the chat (side bar, editor tab). */
  private readonly views = new ChatViews();
  private hasKey = false;
  private pages: { visible(): boolean; reveal(): Promise<void> } | undefined;
  /** What each turn runs with: settings, key, model. */
  private readonly turns: TurnSettings;
  private readonly disposables: vscode.Disposable[] = [];
  /** The workspace's "always allow" answers (the Sessions view's commands keep an egress "always" there too). */
  readonly approvals: ToolApprovals;
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
    this.apps = new AppViews(deps.hub, deps.version ?? '0.0.0', deps.log, deps.extensionUri, deps.sampling?.handler, deps.serversApplied);
    this.modelTools = modelToolHost(deps.hub, deps.toolChoices);
    this.turns = new TurnSettings(deps.secrets, (line) => deps.log.warn(line));
    this.onDidChangeApprovals = this.approvals.onDidChange;
    this.checkpoints = deps.checkpoints;
    this.chat = new OpenChat({
      history: deps.history,
      beforeFirstOpen: deps.beforeFirstOpen,
      make: (meta) => this.makeSession(meta),
      model: () => this.model,
      views: this.views,
      switched: () => this.appContexts.clear(),
      onEvent: (event) => this.apps.onEvent(event),
      stateChanged: () => this.postState(),
      chatsChanged: () => this.chatsChanged.fire(),
    });
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
    return this.chat.session?.busy ?? false;
  }

  /** The open chat's id (undefined until one is opened). */
  get currentChatId(): string | undefined {
    return this.chat.session?.id;
  }

  /** What the chat page may ask and get an answer to (shared/requests.ts). */
  private readonly requests: RequestHandlers = {
    completeMentions: ({ query }) => (this.deps.workspace ? completeMentions(this.deps.workspace, query) : []),
    completeSlash: ({ text }) => completeSlash(text, this.deps.hub),
    send: ({ text, attachments, images }) => this.send(text, attachments, images),
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
        if (session.busy && this.chat.activity) from.post(this.chat.activity);
        this.views.markReady(from);
        return;
      }
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
        this.chat.session?.answer(message.callId, message.decision);
        return;
      case 'setApiKey':
        await vscode.commands.executeCommand('mcpAgent.setApiKey');
        return;
      case 'newChat':
        return this.newChat();
      case 'reviewEdit':
        return this.review.reopen(message.callId);
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
    this.chat.session?.stop();
  }

  /** Starts a new chat; the one open stays in the history (unless it is still empty: then it is the new one). */
  newChat(): Promise<void> {
    return this.chat.newChat();
  }

  /** Opens a chat from the history; a turn running in the one open is stopped and finishes there. */
  openChat(id: string): Promise<void> {
    return this.chat.openChat(id);
  }

  renameChat(id: string, title: string): Promise<void> {
    return this.chat.renameChat(id, title);
  }

  /** Deletes a chat; deleting the open one opens a fresh chat in its place. */
  deleteChat(id: string): Promise<void> {
    return this.chat.deleteChat(id);
  }

  async send(text: string, attachments: string[] = [], images: PastedImage[] = []): Promise<Sent> {
    const takeAppContext = () => this.appContexts.take();
    return sendMessage(await this.turnStart(), this.deps.hub, this.deps.workspace, { text, attachments, images, takeAppContext });
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

  /** An MCP prompt, from /prompt or the Prompts view (chat-turns.ts). */
  async sendPrompt(server: string, name: string, args: Record<string, string>, result: GetPromptResult): Promise<void> {
    await sendPrompt(await this.turnStart(), { server, name, args, result }, (text) => this.toView({ type: 'fill', text }));
  }

  async restore(turnId: string): Promise<void> {
    await restoreTurn(await this.current(), this.checkpoints, turnId);
  }

  async retry(): Promise<void> {
    await retryTurn(await this.turnStart());
  }

  private async turnStart(): Promise<TurnStart> {
    return { session: await this.current(), turns: this.turns };
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

  private current(): Promise<ChatSession> {
    return this.chat.current();
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
      frontEnd: 'VS Code',
      onApprovalShown: (request) => request.edit && this.review.shown(request.callId, request.edit, (line) => this.deps.log.warn(line)),
      onApprovalSettled: (request) => void (request.edit && this.review.close(request.callId)),
    });
  }

  /** The open chat as its views see it (chat-turns.ts). */
  private async appChat(): Promise<AppChat> {
    const start = await this.turnStart();
    return appChat(start, this.appContexts, () => this.chat.session === start.session);
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
    const { hub, workspace, sampling } = this.deps;
    return chatState({ hub, workspace, sampling, hasKey: this.hasKey, busy: this.busy, model: this.model, chat: this.chat.session?.info });
  }

  private postState(): void {
    this.views.broadcast({ type: 'state', state: this.state() });
    // The Stop keybinding applies only while a turn runs.
    void vscode.commands.executeCommand('setContext', 'mcpAgent.busy', this.busy);
  }

  dispose(): void {
    this.apps.dispose();
    this.chat.dispose();
    this.approvals.dispose();
    this.views.dispose();
    this.chatsChanged.dispose();
    for (const d of this.disposables) d.dispose();
    this.review.dispose();
  }
}
