import * as vscode from 'vscode';

const ANTHROPIC = 'mcpAgent.anthropicApiKey';
const BRAVE = 'mcpAgent.braveApiKey';

/**
 * API keys live in VS Code's SecretStorage (the OS keychain), never in settings or logs.
 * ANTHROPIC_API_KEY / BRAVE_API_KEY in the environment are used when no key was stored.
 */
export class Secrets implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<'anthropic' | 'brave'>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly storage: vscode.SecretStorage) {
    this.subscription = storage.onDidChange((e) => {
      if (e.key === ANTHROPIC) this.changed.fire('anthropic');
      if (e.key === BRAVE) this.changed.fire('brave');
    });
  }

  async anthropicKey(): Promise<string | undefined> {
    return (await this.storage.get(ANTHROPIC)) || process.env.ANTHROPIC_API_KEY || undefined;
  }

  async braveKey(): Promise<string | undefined> {
    return (await this.storage.get(BRAVE)) || process.env.BRAVE_API_KEY || undefined;
  }

  async promptForAnthropicKey(): Promise<boolean> {
    const key = await vscode.window.showInputBox({
      title: 'MCP Agent: Anthropic API Key',
      prompt: 'Paste your Anthropic API key. It is kept in VS Code secret storage, not in settings.',
      placeHolder: 'sk-ant-…',
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim().length < 8 ? 'That does not look like an API key.' : undefined),
    });
    if (!key) return false;
    await this.storage.store(ANTHROPIC, key.trim());
    return true;
  }

  async clearAnthropicKey(): Promise<void> {
    await this.storage.delete(ANTHROPIC);
  }

  async promptForBraveKey(): Promise<boolean> {
    const key = await vscode.window.showInputBox({
      title: 'MCP Agent: Brave Search API Key',
      prompt: 'Paste your Brave Search API key (used by the web server’s web_search tool).',
      password: true,
      ignoreFocusOut: true,
    });
    if (!key) return false;
    await this.storage.store(BRAVE, key.trim());
    return true;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
