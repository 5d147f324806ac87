import * as vscode from 'vscode';
import { join } from 'node:path';
import { ChatController } from './vscode/chat/chat-controller';
import { ChatViewProvider } from './vscode/chat/chat-view';
import { ChatPanel } from './vscode/chat/chat-panel';
import { registerCommands } from './vscode/commands';
import { ResourceDocuments } from './vscode/servers/resource-documents';
import { Secrets } from './vscode/secrets';
import { ServerStatusBar } from './vscode/status-bar';
import { ServerManager } from './vscode/servers/server-manager';
import { ClientAsks } from './core/chat/client-asks';
import { registerServerCommands } from './vscode/servers/server-commands';
import { commandRegistrar } from './vscode/command-registrar';
import { PromptsTree } from './vscode/trees/prompts-tree';
import { ResourcesTree } from './vscode/trees/resources-tree';
import { SessionsTree } from './vscode/trees/sessions-tree';
import { ToolsTree } from './vscode/trees/tools-tree';
import { WorkspaceToolChoices } from './vscode/servers/tool-choices-store';
import { registerToolChoiceCommands } from './vscode/servers/tool-choice-commands';
import { ChatsTree, OPEN_SELECTED_CHAT } from './vscode/trees/chats-tree';
import { OrchestratorClient } from './core/sessions/orchestrator-client';
import { RunCheckpoints } from './core/sessions/run-checkpoints';
import { sessionCommands, SessionTranscripts } from './vscode/sessions/session-commands';
import { askEgress } from './vscode/sessions/session-restore';
import { ShadowGit } from './core/checkpoint/shadow-git';
import { importLegacyChat } from './core/chat/legacy-import';
import { readSettings } from './vscode/settings';
import type { ServerState, ServerStatus } from './core/mcp/types';
import { ChatHistory } from './core/chat/chat-history';
import { chatsDir, sessionRunsDir } from './core/chat/chat-home';
import { editorStorageFolders } from './vscode/editor-storage';
import { EditorMcpOffer, type OfferState } from './vscode/servers/editor-mcp';

/** What activate() returns: read by the extension-host tests and by other extensions. */
export interface McpAgentApi {
  activationMs: number;
  /** Each server's state as activate() returned: servers start after it, so none can be ready yet. */
  statesAtActivation: Record<string, ServerState>;
  /** Milliseconds from the start of activate() until the servers first settled. */
  firstSettledMs: Promise<number>;
  serverStatuses(): ServerStatus[];
  toolNames(): string[];
  /** Resolves when no server is still starting. */
  serversSettled(): Promise<void>;
  /** Resolves once every config change so far was applied (the person's own servers included). */
  serversApplied(): Promise<void>;
  /** Calls `listener` whenever a server's state or the config it came from changes; returns the unsubscribe. */
  onServersChanged(listener: () => void): () => void;
  /** Resolves once a chat page has loaded and said it is ready (at once if one has). */
  chatReady(): Promise<void>;
  /** The errors commands showed the person, oldest first (the last 20). */
  commandErrors(): readonly string[];
  /** The person's own servers not running, by name, and why (own-servers.ts's Held). */
  heldServers(): Record<string, string>;
  /** What VS Code's own MCP host is offered: why nothing, or the labels of the servers it lists. */
  editorMcp(): { state: OfferState; labels: string[] };
}

const KEPT_COMMAND_ERRORS = 20;

let manager: ServerManager | undefined;

export function activate(context: vscode.ExtensionContext): McpAgentApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('MCP Agent', { log: true });
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.scheme === 'file' ? vscode.workspace.workspaceFolders[0].uri.fsPath : undefined;
  const secrets = new Secrets(context.secrets);
  // Made before the hub, which declares sampling and elicitation because these handlers exist.
  const asks = new ClientAsks({ log, openExternal: (url) => Promise.resolve(vscode.env.openExternal(vscode.Uri.parse(url, true))) });
  manager = new ServerManager({
    extensionPath: context.extensionPath,
    storageDir: context.globalStorageUri.fsPath,
    editorStorage: editorStorageFolders(context),
    workspace,
    secrets,
    workspaceState: context.workspaceState,
    secretStorage: context.secrets,
    log,
    asks,
  });
  const servers = manager;
  const hub = servers.hub;
  const storage = context.storageUri ?? context.globalStorageUri;
  const history = new ChatHistory(chatsDir(workspace));
  const toolChoices = new WorkspaceToolChoices(context.workspaceState);
  // One repository of snapshots for the chat's turns and the Sessions view's runs: their snapshots take turns.
  const checkpoints = workspace ? new ShadowGit(join(storage.fsPath, 'checkpoints.git'), workspace) : undefined;
  const chat = new ChatController({
    history,
    toolChoices,
    imagesDir: join(storage.fsPath, 'images'),
    checkpoints,
    hub,
    secrets,
    workspace,
    workspaceState: context.workspaceState,
    log,
    asks,
    sampling: manager.sampling,
    version: (context.extension.packageJSON as { version?: string }).version,
    extensionUri: context.extensionUri,
    serversApplied: () => servers.applied(),
    // the one chat older versions kept joins the history before the first chat opens
    beforeFirstOpen: () =>
      importLegacyChat(join(storage.fsPath, 'chats', 'current'), history, readSettings().model).catch((err: unknown) => {
        log.warn(`could not move the earlier chat into the history: ${String(err)}`);
        return undefined;
      }),
  });
  const commandErrors: string[] = [];
  const keepCommandError = (message: string): void => {
    commandErrors.push(message);
    if (commandErrors.length > KEPT_COMMAND_ERRORS) commandErrors.shift();
  };
  const editorMcp = new EditorMcpOffer({
    extensionPath: context.extensionPath,
    version: (context.extension.packageJSON as { version?: string }).version,
    workspace,
    braveKey: () => secrets.braveKey(),
    log,
  });
  const chatView = new ChatViewProvider(context.extensionUri, chat, log);
  const chatPanel = new ChatPanel(context.extensionUri, chat, log);
  chat.showPagesWith({ visible: () => chatView.visible || chatPanel.visible, reveal: () => chatView.showQuietly() });
  const tools = new ToolsTree(hub, (tool) => chat.isAlwaysAllowed(tool), { host: chat.modelTools, choices: toolChoices }, manager);
  const toolsView = vscode.window.createTreeView('mcpAgent.tools', { treeDataProvider: tools, showCollapseAll: true, manageCheckboxStateManually: true });
  tools.watchView(toolsView, log);
  const resources = new ResourcesTree(hub);
  const resourceDocs = new ResourceDocuments(hub, join(storage.fsPath, 'images'), log);
  const prompts = new PromptsTree(hub);
  const resourcesView = vscode.window.createTreeView('mcpAgent.resources', { treeDataProvider: resources });
  const promptsView = vscode.window.createTreeView('mcpAgent.prompts', { treeDataProvider: prompts });
  resources.watchView(resourcesView, log);
  prompts.watchView(promptsView, log);
  const chats = new ChatsTree(history, () => chat.currentChatId);
  const chatsView = vscode.window.createTreeView('mcpAgent.chats', { treeDataProvider: chats });
  const orchestrator = new OrchestratorClient(hub, {
    calls: {
      approvals: chat.approvals,
      askEgress,
      checkpoints,
      workspaceDir: workspace,
      toolTimeoutMs: () => readSettings().toolTimeoutMs,
      log: (m) => log.warn(m),
    },
    runs: workspace ? new RunCheckpoints(sessionRunsDir(workspace)) : undefined,
  });
  const sessions = new SessionsTree(hub, orchestrator);
  const transcripts = new SessionTranscripts(orchestrator, hub);
  sessions.onRead = () => transcripts.refreshOpen();

  context.subscriptions.push(
    log,
    secrets,
    manager,
    editorMcp,
    asks,
    chat,
    tools,
    resources,
    resourceDocs,
    prompts,
    new ServerStatusBar(hub, manager),
    chat.onDidChangeApprovals(() => tools.refresh()),
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, chatView, { webviewOptions: { retainContextWhenHidden: true } }),
    toolChoices,
    toolsView,
    toolsView.onDidChangeCheckboxState((e) => void tools.onCheckbox(e.items)),
    ...registerToolChoiceCommands(toolChoices, commandRegistrar(log, keepCommandError)),
    resourcesView,
    promptsView,
    sessions,
    transcripts,
    vscode.window.createTreeView('mcpAgent.sessions', { treeDataProvider: sessions }),
    chats,
    chat.onDidChangeChats(() => chats.refresh()),
    chatsView,
    // A row's own command, with no arguments: VS Code keeps a row it sees unchanged across a refresh while the
    // arguments' handle it stood for is dropped, so a click on it ran nothing ("Actual command not found").
    vscode.commands.registerCommand(OPEN_SELECTED_CHAT, () => {
      const meta = chatsView.selection[0];
      if (meta) void vscode.commands.executeCommand('mcpAgent.openChatFromHistory', meta);
    }),
    chatPanel,
    ...registerCommands({
      chat,
      chatView,
      chatPanel,
      secrets,
      hub,
      serverLogs: manager.logs,
      resources: resourceDocs,
      tools,
      log,
      workspace,
      history,
      sessions: sessionCommands(orchestrator, sessions, transcripts, checkpoints),
      onError: (m) => keepCommandError(m),
    }),
    ...registerServerCommands(manager, commandRegistrar(log, keepCommandError)),
  );

  // Servers start after activate() returns, in parallel, so the editor never waits for them.
  const serversStarted = performance.now();
  const firstSettledMs = new Promise<number>((resolve) =>
    setImmediate(() => {
      void servers.settled().then(() => {
        const ready = hub.statuses().filter((s) => s.state === 'ready');
        log.info(
          `servers settled in ${Math.round(performance.now() - serversStarted)} ms: ${ready.map((s) => `${s.name} (${s.tools.length} tools)`).join(', ') || 'none ready'}`,
        );
        resolve(performance.now() - started);
      });
    }),
  );

  const activationMs = performance.now() - started;
  log.info(`activate() took ${activationMs.toFixed(1)} ms`);
  return {
    activationMs,
    statesAtActivation: Object.fromEntries(hub.statuses().map((st) => [st.name, st.state])),
    firstSettledMs,
    serverStatuses: () => hub.statuses(),
    toolNames: () => hub.tools().map((t) => t.qualifiedName),
    serversSettled: () => servers.settled(),
    serversApplied: () => servers.applied(),
    onServersChanged: (listener) => {
      const off = hub.on('change', listener);
      const sub = servers.onDidChangeSources(listener);
      return () => {
        off();
        sub.dispose();
      };
    },
    chatReady: () =>
      chat.isViewReady
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const once = chat.onDidBecomeReady(() => {
              once.dispose();
              resolve();
            });
          }),
    commandErrors: () => [...commandErrors],
    heldServers: () => Object.fromEntries(servers.ownSources().flatMap((s) => s.servers.flatMap((o) => (o.held ? [[o.definition.name, o.held]] : [])))),
    editorMcp: () => ({ state: editorMcp.state(), labels: editorMcp.offered().map((s) => s.label) }),
  };
}

export async function deactivate(): Promise<void> {
  await manager?.hub.dispose();
}
