import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { ConfigSource } from '../../core/mcp/config/definition';
import type { AskInput, InputRequest } from '../../core/mcp/config/vscode-inputs';

/**
 * mcp.json's `inputs` for the extension: a `password: true` value is asked once and then kept in
 * SecretStorage (the OS keychain), others are asked once per window session and kept in memory.
 * Each is keyed by file and input id, so two files' inputs with the same id are two questions.
 */
export class ServerInputs {
  private readonly session = new Map<string, string>();

  constructor(private readonly secrets: vscode.SecretStorage) {}

  readonly ask: AskInput = async (input, source) => {
    const key = keyOf(input, source);
    if (input.password) {
      const stored = await this.secrets.get(key);
      if (stored !== undefined) return stored;
    } else if (this.session.has(key)) return this.session.get(key);
    const value = await this.prompt(input, source);
    if (value === undefined) return undefined;
    if (input.password) await this.secrets.store(key, value);
    else this.session.set(key, value);
    return value;
  };

  /** Forgets what was answered for a file's inputs (stored secrets too), so they are asked again. */
  async forget(inputs: readonly InputRequest[], source: ConfigSource): Promise<void> {
    for (const input of inputs) {
      const key = keyOf(input, source);
      this.session.delete(key);
      if (input.password) await this.secrets.delete(key);
    }
  }

  private async prompt(input: InputRequest, source: ConfigSource): Promise<string | undefined> {
    const title = `MCP server input "${input.id}" (${vscode.workspace.asRelativePath(source.file)})`;
    if (input.type === 'pickString') {
      const items = (input.options ?? []).map((o) => ({
        label: o.label,
        description: o.label !== o.value ? o.value : undefined,
        value: o.value,
        picked: o.value === input.default,
      }));
      const picked = await vscode.window.showQuickPick(items, { title, placeHolder: input.description, ignoreFocusOut: true });
      return picked?.value;
    }
    return vscode.window.showInputBox({
      title,
      prompt: input.description,
      value: input.password ? undefined : input.default,
      password: input.password,
      ignoreFocusOut: true,
    });
  }
}

function keyOf(input: InputRequest, source: ConfigSource): string {
  return `mcpAgent.input.${createHash('sha256').update(`${source.file}\0${input.id}`).digest('hex').slice(0, 32)}`;
}
