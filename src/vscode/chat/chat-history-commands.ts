import * as vscode from 'vscode';
import { writeFile } from 'node:fs/promises';
import type { ChatHistory } from '../../core/chat/chat-history';
import type { ChatMeta } from '../../core/chat/chat-meta';
import type { ChatController } from './chat-controller';
import type { ChatViewProvider } from './chat-view';
import { when } from '../trees/chats-tree';

/** What the history commands act on: the chat clicked in the Chats view, or one picked from a list. */
type Target = ChatMeta | undefined;

export interface HistoryCommandDeps {
  chat: ChatController;
  chatView: ChatViewProvider;
  history: ChatHistory;
  workspace: string | undefined;
}

/** The commands behind the Chats view and the chat's history button; each is registered by the caller's error-reporting wrapper. */
export function historyCommands(deps: HistoryCommandDeps): Record<string, (target?: Target) => Promise<void>> {
  const { chat, chatView, history } = deps;
  const pick = async (target: Target, title: string): Promise<ChatMeta | undefined> => target ?? pickChat(history, title);
  return {
    'mcpAgent.openChatFromHistory': async (target) => {
      const meta = await pick(target, 'Open a chat');
      if (!meta) return;
      await chat.openChat(meta.id);
      await chatView.reveal();
      chat.focus();
    },
    'mcpAgent.searchChats': async () => {
      const meta = await pickChat(history, 'Search chats by title');
      if (!meta) return;
      await chat.openChat(meta.id);
      await chatView.reveal();
      chat.focus();
    },
    'mcpAgent.renameChat': async (target) => {
      const meta = await pick(target, 'Rename a chat');
      if (!meta) return;
      const title = await vscode.window.showInputBox({
        title: 'Rename chat',
        value: meta.title,
        valueSelection: [0, meta.title.length],
        validateInput: (v) => (v.trim() ? undefined : 'A chat needs a title.'),
      });
      if (title?.trim()) await chat.renameChat(meta.id, title);
    },
    'mcpAgent.deleteChat': async (target) => {
      const meta = await pick(target, 'Delete a chat');
      if (!meta) return;
      const yes = 'Delete';
      const answer = await vscode.window.showWarningMessage(
        `Delete the chat “${meta.title}”?`,
        { modal: true, detail: 'Its messages cannot be brought back. Files the agent changed stay as they are.' },
        yes,
      );
      if (answer === yes) await chat.deleteChat(meta.id);
    },
    'mcpAgent.exportChat': async (target) => {
      const meta = await pick(target, 'Export a chat as Markdown');
      if (!meta) return;
      const markdown = await history.exportMarkdown(meta.id);
      const base = deps.workspace ? vscode.Uri.file(deps.workspace) : undefined;
      const name = `${
        meta.title
          .replace(/[^\p{L}\p{N} ._-]+/gu, '')
          .trim()
          .replace(/\s+/g, '-')
          .slice(0, 60) || 'chat'
      }.md`;
      const uri = await vscode.window.showSaveDialog({
        title: 'Export chat as Markdown',
        defaultUri: base ? vscode.Uri.joinPath(base, name) : undefined,
        filters: { Markdown: ['md'] },
      });
      if (!uri) return;
      await writeFile(uri.fsPath, markdown, 'utf8');
      await vscode.window.showTextDocument(uri, { preview: true });
    },
  };
}

/** A quick pick of the chats, newest first, filtered by title as the person types. */
async function pickChat(history: ChatHistory, title: string): Promise<ChatMeta | undefined> {
  const chats = await history.list();
  if (chats.length === 0) {
    void vscode.window.showInformationMessage('MCP Agent: there are no saved chats in this workspace yet.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    chats.map((meta) => ({ label: meta.title, description: `${when(meta.updatedAt)} · ${meta.model}`, meta })),
    { title, placeHolder: 'Type to search chat titles', matchOnDescription: false },
  );
  return picked?.meta;
}
