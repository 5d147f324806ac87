// Inside the real extension host: beside VS Code's own MCP host. Where this VS Code has the stable provider API
// (1.101 and later) the bundled servers are offered to it; where not (1.100), nothing is tried and MCP Agent's own
// servers run as before. A folder's .vscode/mcp.json left to VS Code's host is neither asked about nor started.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { McpAgentApi } from '../../../src/extension';

const ID = 'mcp-agent.mcp-agent';
const OFFERED = ['MCP Agent: workspace', 'MCP Agent: web', 'MCP Agent: research'];

async function api(): Promise<McpAgentApi> {
  const ext = vscode.extensions.getExtension<McpAgentApi>(ID);
  assert.ok(ext, `${ID} is not installed`);
  return ext.activate();
}

const [major = 0, minor = 0] = vscode.version.split('.').map(Number);
const stableMcpApi = major > 1 || minor >= 101;

/** Resolves once `check` returns a value, checked on every server change; fails naming what it waited for. */
async function until<T>(a: McpAgentApi, what: string, check: () => T | undefined): Promise<T> {
  const first = check();
  if (first !== undefined) return first;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out waiting for ${what}; held: ${JSON.stringify(a.heldServers())}`));
    }, 30_000);
    const off = a.onServersChanged(() => {
      const value = check();
      if (value === undefined) return;
      clearTimeout(timer);
      off();
      resolve(value);
    });
  });
}

async function setting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('mcpAgent').update(key, value, vscode.ConfigurationTarget.Global);
}

describe("beside VS Code's own MCP host", function () {
  const folder = (): string => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const created: string[] = [];

  after(async () => {
    await setting('offerServersToVSCode', undefined);
    await setting('workspaceServersHost', undefined);
    for (const f of created) rmSync(f, { recursive: true, force: true });
  });

  it(`offers the bundled servers where VS Code has the stable API, and its own run either way (VS Code ${vscode.version})`, async () => {
    const a = await api();
    await a.serversSettled();
    const offer = a.editorMcp();
    if (stableMcpApi) assert.deepEqual(offer, { state: 'offered', labels: OFFERED });
    else assert.deepEqual(offer, { state: 'no-api', labels: [] });
    for (const name of ['workspace', 'web', 'research']) {
      const status = a.serverStatuses().find((s) => s.name === name);
      assert.equal(status?.state, 'ready', `${name} is not ready: ${status?.error ?? ''}`);
    }
  });

  it('mcpAgent.offerServersToVSCode turns the offer off', async () => {
    const a = await api();
    await setting('offerServersToVSCode', false);
    assert.deepEqual(a.editorMcp(), stableMcpApi ? { state: 'off', labels: [] } : { state: 'no-api', labels: [] });
    await setting('offerServersToVSCode', undefined);
    assert.equal(a.editorMcp().state, stableMcpApi ? 'offered' : 'no-api');
  });

  it("a .vscode/mcp.json left to VS Code's host is neither asked about nor started", async () => {
    const a = await api();
    await setting('workspaceServersHost', 'vscode');
    const dir = join(folder(), '.vscode');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'mcp.json');
    created.push(file);
    const echo = join(vscode.extensions.getExtension(ID)!.extensionPath, 'out', 'test', 'fakes', 'mcp-echo.js');
    // Were it MCP Agent's, this would raise the consent modal, and serversApplied() would wait on it.
    writeFileSync(file, JSON.stringify({ servers: { leftalone: { command: process.execPath, args: [echo], env: { ELECTRON_RUN_AS_NODE: '1' } } } }));
    await until(a, 'leftalone read and held', () => a.heldServers().leftalone);
    await a.serversApplied();
    assert.equal(a.heldServers().leftalone, 'editor-host');
    assert.equal(
      a.serverStatuses().find((s) => s.name === 'leftalone'),
      undefined,
    );
  });
});
