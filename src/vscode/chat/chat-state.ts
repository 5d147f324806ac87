import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { McpHub } from '../../core/mcp/hub/hub';
import type { ChatMeta } from '../../core/chat/chat-meta';
import type { SamplingBroker } from '../../core/sampling/sampling-broker';
import type { ChatState } from '../../common/protocol';

export interface StateSources {
  hub: McpHub;
  workspace: string | undefined;
  sampling?: SamplingBroker;
  hasKey: boolean;
  busy: boolean;
  model: string;
  /** The open chat's title and totals, once one is open. */
  chat: ChatMeta | undefined;
}

/** What the chat page shows around the conversation: key, trust, model, servers that failed, the chat's totals. */
export function chatState(from: StateSources): ChatState {
  const problems = from.hub
    .statuses()
    .filter((s) => s.state === 'error')
    .map((s) => `${s.name}: ${s.error ?? 'failed'}`);
  if (!from.workspace) problems.unshift('No folder is open: open one to give the agent a workspace.');
  const budgets = from.sampling?.budgetUse() ?? [];
  const meta = from.chat;
  return {
    hasKey: from.hasKey,
    trusted: vscode.workspace.isTrusted,
    busy: from.busy,
    model: from.model,
    workspaceName: from.workspace ? basename(from.workspace) : '',
    serverProblems: problems,
    ...(meta ? { chat: { title: meta.title, usage: meta.usage, unpricedTurns: meta.unpricedTurns ?? 0 } } : {}),
    ...(budgets.length > 0 ? { samplingBudgets: budgets } : {}),
  };
}
