import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { CompleteRequestParams } from '@modelcontextprotocol/client';
import type { McpHub } from '../core/mcp/hub/hub';
import { resourceTemplate } from '../core/mcp/requests/resource-template';
import type { ChatController } from './chat/chat-controller';
import { createSampleDatabase } from './sample-db-command';
import { resourceRef } from '../core/chat/attachments';
import type { ChatViewProvider } from './chat/chat-view';
import type { ChatPanel } from './chat/chat-panel';
import type { Secrets } from './secrets';
import type { ToolsTree } from './trees/tools-tree';
import type { ChatHistory } from '../core/chat/chat-history';
import { historyCommands } from './chat/chat-history-commands';
import { pickModel } from './chat/model-picker';
import { commandRegistrar } from './command-registrar';
import type { ServerLogs } from './servers/server-logs';
import { askArguments } from './argument-input';
import type { ResourceDocuments } from './servers/resource-documents';

export interface CommandDeps {
  chat: ChatController;
  chatView: ChatViewProvider;
  chatPanel: ChatPanel;
  secrets: Secrets;
  hub: McpHub;
  /** Each server's output channel. */
  serverLogs: ServerLogs;
  /** MCP resources as read-only documents. */
  resources: ResourceDocuments;
  tools: ToolsTree;
  log: vscode.LogOutputChannel;
  workspace: string | undefined;
  history: ChatHistory;
  /** The Sessions view's commands (session-commands.ts). */
  sessions: Record<string, (...args: never[]) => Promise<void>>;
  /** Told every error a command showed the person (the extension's API keeps the last few for tests). */
  onError?: (message: string) => void;
}

/** Every `mcpAgent.*` command the extension contributes. */
export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const { chat, chatView, secrets, hub, log } = deps;
  const register = commandRegistrar(log, (m) => deps.onError?.(m));

  const chats = historyCommands({ chat, chatView, history: deps.history, workspace: deps.workspace });
  return [
    ...Object.entries({ ...chats, ...deps.sessions }).map(([id, run]) => register(id, run as (...args: never[]) => unknown)),
    register('mcpAgent.setApiKey', async () => {
      if (await secrets.promptForAnthropicKey()) void vscode.window.showInformationMessage('MCP Agent: API key saved in secret storage.');
    }),
    register('mcpAgent.clearApiKey', async () => {
      await secrets.clearAnthropicKey();
      void vscode.window.showInformationMessage('MCP Agent: stored API key removed.');
    }),
    register('mcpAgent.setBraveKey', async () => {
      if (await secrets.promptForBraveKey()) void vscode.window.showInformationMessage('MCP Agent: Brave Search key saved; the web server restarts with it.');
    }),
    register('mcpAgent.openChat', async () => {
      await chatView.reveal();
      chat.focus();
    }),
    register('mcpAgent.newChat', () => chat.newChat()),
    register('mcpAgent.openChatInEditor', () => deps.chatPanel.open()),
    // The trees have a side bar of their own, so the chat keeps its whole height; this is the way there from the chat.
    register('mcpAgent.showServers', () => vscode.commands.executeCommand('mcpAgent.tools.focus')),
    register('mcpAgent.pickModel', () => pickModel(chat.models, chat.model)),
    register('mcpAgent.createSampleDatabase', () =>
      createSampleDatabase(deps.workspace, async () => {
        await chatView.reveal();
        chat.focus();
      }),
    ),
    register('mcpAgent.stop', () => chat.stop()),
    register('mcpAgent.askAboutFile', async (uri?: vscode.Uri, selected?: vscode.Uri[]) => {
      const targets = askTargets(uri, selected);
      if (targets.length === 0) throw new Error('Pick a file in the explorer or open one in the editor first.');
      await chatView.reveal();
      for (const target of targets) {
        const rel = workspaceRelative(target, deps.workspace);
        chat.attach(rel, basename(rel));
      }
    }),
    register('mcpAgent.askAboutSelection', async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) throw new Error('Open a file and select some lines first.');
      const rel = workspaceRelative(editor.document.uri, deps.workspace);
      const { start, end } = editor.selection;
      const last = end.character === 0 && end.line > start.line ? end.line : end.line + 1;
      const range = `#L${start.line + 1}-${last}`;
      await chatView.reveal();
      chat.attach(`${rel}${range}`, `${basename(rel)}:${start.line + 1}-${last}`);
    }),
    register('mcpAgent.restartServer', async (item?: { status?: { name?: string } } | string) => {
      const name = typeof item === 'string' ? item : (item?.status?.name ?? (await pickServer(hub, 'Restart which MCP server?')));
      if (name) await hub.restart(name);
    }),
    register('mcpAgent.refreshTools', () => deps.tools.refresh()),
    register('mcpAgent.showLog', () => log.show()),
    register('mcpAgent.showServerLog', async (item?: { status?: { name?: string } } | string) => {
      const name = typeof item === 'string' ? item : (item?.status?.name ?? (await pickServer(hub, 'Show the log of which MCP server?')));
      if (name) deps.serverLogs.show(name);
    }),
    register('mcpAgent.resetApprovals', async () => {
      await chat.resetApprovals();
      void vscode.window.showInformationMessage('MCP Agent: every tool asks again before it changes anything.');
    }),
    register('mcpAgent.openResource', (server: string, uri: string) => deps.resources.show(server, uri)),
    register('mcpAgent.openResourceTemplate', async (server: string, uriTemplate: string) => {
      const template = resourceTemplate(uriTemplate);
      const values = await askArguments({
        title: uriTemplate,
        args: template.variables.map((name) => ({ name, required: true })),
        complete: completer(hub, server, { type: 'ref/resource', uri: uriTemplate }),
      });
      if (values) await deps.resources.show(server, template.expand(values));
    }),
    register('mcpAgent.usePrompt', async (server: string, name: string, given?: Record<string, string>) => {
      const prompt = hub.status(server)?.prompts.find((p) => p.name === name);
      if (!prompt) throw new Error(`The prompt ${name} of ${server} is no longer offered.`);
      const args = await askArguments({
        title: prompt.title ?? prompt.name,
        args: prompt.arguments ?? [],
        given,
        complete: completer(hub, server, { type: 'ref/prompt', name }),
      });
      if (!args) return;
      const result = await hub.getPrompt(server, name, args);
      await chatView.reveal();
      await chat.sendPrompt(server, name, args, result);
    }),
    register('mcpAgent.addResourceToChat', async (node?: { server?: string; resource?: { uri: string; name: string; title?: string } }) => {
      if (!node?.server || !node.resource) throw new Error('Pick a resource in the Resources view first.');
      await chatView.reveal();
      chat.attach(resourceRef(node.server, node.resource.uri), node.resource.title ?? node.resource.name);
    }),
  ];
}

/**
 * The explorer passes the clicked file and the selection; the selection counts only when the clicked file is
 * part of it (a file selected earlier, e.g. one the explorer revealed, must not replace the one clicked).
 */
function askTargets(uri: vscode.Uri | undefined, selected: vscode.Uri[] | undefined): vscode.Uri[] {
  if (uri && selected?.some((s) => s.toString() === uri.toString())) return selected;
  if (uri) return [uri];
  if (selected?.length) return selected;
  const editor = vscode.window.activeTextEditor;
  return editor ? [editor.document.uri] : [];
}

/** The server's suggestions for one argument of `ref`, with the arguments given before it as context. */
function completer(
  hub: McpHub,
  server: string,
  ref: CompleteRequestParams['ref'],
): (name: string, value: string, context: Record<string, string>) => Promise<string[]> {
  return async (name, value, context) => {
    const result = await hub.complete(server, { ref, argument: { name, value }, ...(Object.keys(context).length ? { context: { arguments: context } } : {}) });
    return result.completion.values;
  };
}

function workspaceRelative(uri: vscode.Uri, workspace: string | undefined): string {
  if (!workspace) throw new Error('Open a folder first: the agent only works inside a workspace folder.');
  const rel = vscode.workspace.asRelativePath(uri, false);
  if (uri.scheme !== 'file' || rel === uri.fsPath) throw new Error(`${uri.fsPath} is outside the workspace folder, so the agent cannot read it.`);
  return rel;
}

async function pickServer(hub: McpHub, title: string): Promise<string | undefined> {
  return vscode.window.showQuickPick(
    hub.statuses().map((s) => s.name),
    { title },
  );
}
