import * as vscode from 'vscode';
import { approvalKey, type ApprovalStore } from '../../core/tool-call/approval-policy';
import type { HubTool } from '../../core/mcp/types';

const APPROVALS_KEY = 'mcpAgent.alwaysAllowed';

/** The "always allow" answers of this workspace, kept in its workspace state. */
export class ToolApprovals implements ApprovalStore, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when an answer is added or they are all reset. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {}

  has(key: string): boolean {
    return this.state.get<string[]>(APPROVALS_KEY, []).includes(key);
  }

  async add(key: string): Promise<void> {
    await this.state.update(APPROVALS_KEY, [...new Set([...this.state.get<string[]>(APPROVALS_KEY, []), key])]);
    this.changed.fire();
  }

  /** Whether this tool, as defined now, runs without asking in this workspace. */
  isAlwaysAllowed(tool: Pick<HubTool, 'server' | 'tool'>): boolean {
    return this.has(approvalKey(tool));
  }

  async reset(): Promise<void> {
    await this.state.update(APPROVALS_KEY, []);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
