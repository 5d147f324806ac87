import type * as vscode from 'vscode';
import type { Register } from '../command-registrar';
import type { ToolsNode } from '../trees/tools-tree';
import type { WorkspaceToolChoices } from './tool-choices-store';

/**
 * The Tools view's menu on tools and servers: pin a tool (its definition goes with every request) or
 * turn one off for the model, the same as its checkbox, for those who prefer a menu or the keyboard.
 */
export function registerToolChoiceCommands(choices: WorkspaceToolChoices, register: Register): vscode.Disposable[] {
  const target = (node: ToolsNode | undefined): { server: string; tool?: string } | undefined =>
    node?.kind === 'tool' ? { server: node.server, tool: node.tool.name } : node?.kind === 'server' ? { server: node.status.name } : undefined;
  const pin = (pinned: boolean) => async (node?: ToolsNode) => {
    const t = target(node);
    if (t?.tool) await choices.setPinned(t.server, t.tool, pinned);
  };
  const turn = (off: boolean) => async (node?: ToolsNode) => {
    const t = target(node);
    if (t) await choices.setOff(t.server, t.tool, off);
  };
  return [
    register('mcpAgent.pinTool', pin(true)),
    register('mcpAgent.unpinTool', pin(false)),
    register('mcpAgent.turnOffForModel', turn(true)),
    register('mcpAgent.turnOnForModel', turn(false)),
  ];
}
