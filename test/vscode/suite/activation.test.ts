// The extension is installed in the real extension host, activates cleanly and registers what it contributes.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpAgentApi } from '../../../src/extension';

const ID = 'mcp-agent.mcp-agent';

interface Contributes {
  commands?: Array<{ command: string }>;
}

describe('activation', () => {
  it('the extension is present and activates without error', async () => {
    const ext = vscode.extensions.getExtension(ID);
    assert.ok(ext, `${ID} is not installed`);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('registers every command it contributes', async () => {
    const ext = vscode.extensions.getExtension(ID);
    assert.ok(ext);
    await ext.activate();
    const contributed = ((ext.packageJSON as { contributes?: Contributes }).contributes?.commands ?? []).map((c) => c.command);
    assert.ok(contributed.length > 0, 'package.json contributes no commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(
      contributed.filter((c) => !registered.has(c)),
      [],
      'contributed but not registered',
    );
  });

  it('opens the MCP Agent side bar, and the chat page loads and says ready', async () => {
    const ext = vscode.extensions.getExtension<McpAgentApi>(ID);
    assert.ok(ext);
    const api = await ext.activate();
    await vscode.commands.executeCommand('workbench.view.extension.mcpAgent');
    // Resolves only when the webview's script ran, posted `ready`, and got the conversation back.
    await api.chatReady();
  });
});
