import * as vscode from 'vscode';
import type { ToolChoices } from '../../core/tool-offer/tool-choices';

const OFF_KEY = 'mcpAgent.toolsOff';
const PINNED_KEY = 'mcpAgent.toolsPinned';

/**
 * The person's choices about tools for the model in this workspace (its workspace state, like VS
 * Code's tool picker): servers and tools turned off, tools pinned. By server name and tool name, so a
 * server that restarts or changes its list keeps them.
 */
export class WorkspaceToolChoices implements ToolChoices, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {}

  isOff(server: string, tool?: string): boolean {
    return this.list(OFF_KEY).includes(idOf(server, tool));
  }

  isPinned(server: string, tool: string): boolean {
    return this.list(PINNED_KEY).includes(idOf(server, tool));
  }

  setOff(server: string, tool: string | undefined, off: boolean): Promise<void> {
    return this.set(OFF_KEY, idOf(server, tool), off);
  }

  setPinned(server: string, tool: string, pinned: boolean): Promise<void> {
    return this.set(PINNED_KEY, idOf(server, tool), pinned);
  }

  private list(key: string): string[] {
    return this.state.get<string[]>(key) ?? [];
  }

  private async set(key: string, id: string, on: boolean): Promise<void> {
    const rest = this.list(key).filter((x) => x !== id);
    await this.state.update(key, on ? [...rest, id] : rest);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** A server alone is its name; a tool is `server\0tool` (no server or tool name holds a NUL). */
function idOf(server: string, tool: string | undefined): string {
  return tool === undefined ? server : `${server}\0${tool}`;
}
