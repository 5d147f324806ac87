// Inside the real extension host: the bundled servers start in the background and their tools reach the hub.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpAgentApi } from '../../../src/extension';

const ID = 'mcp-agent.mcp-agent';

async function api(): Promise<McpAgentApi> {
  const ext = vscode.extensions.getExtension<McpAgentApi>(ID);
  assert.ok(ext, `${ID} is not installed`);
  return ext.activate();
}

describe('bundled servers in the extension host', () => {
  it('activate() returns before any server is ready: they start in the background', async () => {
    const a = await api();
    assert.ok(Number.isFinite(a.activationMs) && a.activationMs > 0, `activationMs ${a.activationMs}`);
    const early = Object.entries(a.statesAtActivation).filter(([, state]) => state === 'ready');
    assert.deepEqual(early, [], 'a server was ready when activate() returned, so activation waited for it');
    const settledMs = await a.firstSettledMs;
    assert.ok(a.activationMs < settledMs, `activate() took ${a.activationMs} ms but the servers settled ${settledMs} ms after it began`);
    console.log(`activate() took ${a.activationMs.toFixed(1)} ms; the servers settled ${settledMs.toFixed(0)} ms after it began`);
  });

  it('lists the workspace, web, research and orchestrator servers as ready with their tools', async () => {
    const a = await api();
    const started = Date.now();
    await a.serversSettled();
    console.log(`servers settled ${Date.now() - started} ms after the test asked`);
    const states = Object.fromEntries(a.serverStatuses().map((s) => [s.name, s.state]));
    assert.deepEqual(states, { workspace: 'ready', web: 'ready', research: 'ready', orchestrator: 'ready' });
    const names = a.toolNames();
    for (const tool of ['read_file', 'write_file', 'edit_file', 'list_directory', 'search_files', 'run_code', 'query_database']) {
      assert.ok(names.includes(`workspace__${tool}`), `workspace__${tool} missing from ${names.join(', ')}`);
    }
    for (const tool of ['fetch_url', 'web_search', 'get_weather', 'get_sports_scores']) assert.ok(names.includes(`web__${tool}`));
    for (const tool of ['search_papers', 'extract_info']) assert.ok(names.includes(`research__${tool}`));
    for (const tool of ['list_agents', 'start_agent', 'resume_agent', 'list_sessions', 'get_session', 'clean_sessions', 'query']) {
      assert.ok(names.includes(`orchestrator__${tool}`), `orchestrator__${tool} missing`);
    }
  });

  it('restarts a server on command and it comes back ready', async () => {
    const a = await api();
    await a.serversSettled();
    await vscode.commands.executeCommand('mcpAgent.restartServer', 'web');
    await a.serversSettled();
    assert.equal(a.serverStatuses().find((s) => s.name === 'web')?.state, 'ready');
  });

  it('opens a resource of the research server as a document', async () => {
    const a = await api();
    await a.serversSettled();
    const research = a.serverStatuses().find((s) => s.name === 'research');
    assert.ok(
      research?.resources.some((r) => r.uri === 'papers://folders'),
      'research offers papers://folders',
    );
    await vscode.commands.executeCommand('mcpAgent.openResource', 'research', 'papers://folders');
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc, 'a document opened');
    assert.match(doc.getText(), /topic|paper|search_papers/i);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('"Ask Agent About File" refuses a file outside the workspace, telling the person why', async () => {
    const a = await api();
    const before = a.commandErrors().length;
    await vscode.commands.executeCommand('mcpAgent.askAboutFile', vscode.Uri.file('/etc/hostname'));
    const shown = a.commandErrors().slice(before);
    assert.equal(shown.length, 1, `expected one error, got ${JSON.stringify(shown)}`);
    assert.match(shown[0]!, /^mcpAgent\.askAboutFile: \/etc\/hostname is outside the workspace folder/);
  });

  it('"Ask Agent About File" attaches a workspace file without an error and shows the chat', async () => {
    const a = await api();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the suite opens a workspace folder');
    const file = vscode.Uri.joinPath(folder.uri, 'example.txt');
    await vscode.workspace.fs.stat(file); // the sample workspace has it
    const before = a.commandErrors().length;
    await vscode.commands.executeCommand('mcpAgent.askAboutFile', file);
    assert.deepEqual(a.commandErrors().slice(before), []);
    await a.chatReady();
  });
});
