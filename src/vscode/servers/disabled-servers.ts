import type * as vscode from 'vscode';
import type { ConfigSource } from '../../core/mcp/config/definition';

const KEY = 'mcpAgent.disabledServers';

/** Servers the person turned off in this workspace, by file and name in that file (so a rename or move enables it again). */
export class DisabledServers {
  constructor(private readonly state: vscode.Memento) {}

  has(source: ConfigSource, key: string): boolean {
    return this.all().includes(idOf(source, key));
  }

  async set(source: ConfigSource, key: string, disabled: boolean): Promise<void> {
    const id = idOf(source, key);
    const rest = this.all().filter((x) => x !== id);
    await this.state.update(KEY, disabled ? [...rest, id] : rest);
  }

  private all(): string[] {
    return this.state.get<string[]>(KEY) ?? [];
  }
}

function idOf(source: ConfigSource, key: string): string {
  return `${source.file}\0${key}`;
}
