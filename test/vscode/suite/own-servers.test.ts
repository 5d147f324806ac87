// Inside the real extension host: the person's own servers from the mcpAgent.servers setting and the
// workspace's config files join the bundled ones; an edit restarts only what changed; a broken file is a
// diagnostic on that file; Add Server and the Claude Desktop import write their configs.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { McpAgentApi } from '../../../src/extension';
import type { ServerStatus } from '../../../src/core/mcp/types';

const ID = 'mcp-agent.mcp-agent';
/** Generous: proves "it did not hang", not a speed. */
const WITHIN_MS = 30_000;

async function api(): Promise<McpAgentApi> {
  const ext = vscode.extensions.getExtension<McpAgentApi>(ID);
  assert.ok(ext, `${ID} is not installed`);
  return ext.activate();
}

function echoPath(): string {
  return join(vscode.extensions.getExtension(ID)!.extensionPath, 'out', 'test', 'fakes', 'mcp-echo.js');
}

/** A stdio echo server as the setting holds one; ELECTRON_RUN_AS_NODE makes a desktop VS Code's binary plain Node. */
function echo(name: string): Record<string, unknown> {
  return { type: 'stdio', command: process.execPath, args: [echoPath(), `--name=${name}`], env: { ELECTRON_RUN_AS_NODE: '1' } };
}

/** Resolves once `check` returns a value, checked on every server change; fails naming what it waited for. */
async function until<T>(a: McpAgentApi, what: string, check: () => T | undefined): Promise<T> {
  const first = check();
  if (first !== undefined) return first;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out waiting for ${what}; servers: ${JSON.stringify(a.serverStatuses().map((s) => [s.name, s.state, s.error]))}`));
    }, WITHIN_MS);
    const off = a.onServersChanged(() => {
      const value = check();
      if (value === undefined) return;
      clearTimeout(timer);
      off();
      resolve(value);
    });
  });
}

const status = (a: McpAgentApi, name: string): ServerStatus | undefined => a.serverStatuses().find((s) => s.name === name);
const readyPid = (a: McpAgentApi, name: string): number | undefined => {
  const s = status(a, name);
  return s?.state === 'ready' ? s.pid : undefined;
};

async function setServers(value: Record<string, unknown> | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('mcpAgent').update('servers', value, vscode.ConfigurationTarget.Global);
}

describe("the person's own MCP servers", function () {
  const folder = (): string => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const created: string[] = [];

  after(async () => {
    await setServers(undefined);
    for (const f of created) rmSync(f, { recursive: true, force: true });
    await (await api()).serversApplied();
  });

  it('a server in the mcpAgent.servers setting starts next to the bundled ones, without a question', async () => {
    const a = await api();
    await a.serversSettled();
    await setServers({ alpha: echo('alpha') });
    const pid = await until(a, 'alpha ready', () => readyPid(a, 'alpha'));
    assert.ok(pid);
    assert.ok(a.toolNames().includes('alpha__echo'), a.toolNames().join(', '));
    assert.equal(status(a, 'workspace')?.state, 'ready', 'the bundled servers keep running');
  });

  it('editing the setting restarts only the server whose definition changed', async () => {
    const a = await api();
    await setServers({ alpha: echo('alpha'), beta: echo('beta') });
    const alphaPid = await until(a, 'alpha ready', () => readyPid(a, 'alpha'));
    const betaPid = await until(a, 'beta ready', () => readyPid(a, 'beta'));
    const workspacePid = readyPid(a, 'workspace');
    const orchestratorPid = readyPid(a, 'orchestrator');
    const edited = performance.now();
    await setServers({ alpha: echo('alpha'), beta: { ...echo('beta'), args: [echoPath(), '--name=beta-2'] } });
    const newBeta = await until(a, 'beta restarted', () => {
      const pid = readyPid(a, 'beta');
      return pid !== undefined && pid !== betaPid ? pid : undefined;
    });
    console.log(`setting edited -> the changed server ready again: ${Math.round(performance.now() - edited)} ms`);
    assert.notEqual(newBeta, betaPid);
    assert.equal(readyPid(a, 'alpha'), alphaPid, 'alpha did not change, so it kept running');
    assert.equal(readyPid(a, 'workspace'), workspacePid, 'the bundled servers kept running');
    // It reads the person's servers from a file that changed, not from its environment: its sessions go on.
    assert.equal(readyPid(a, 'orchestrator'), orchestratorPid, 'the orchestrator kept running');
    assert.match(status(a, 'beta')?.serverVersion ?? '', /^beta-2 /);
  });

  it('a server that cannot start ends in error saying why (exit code, its stderr), never "starting" for good', async () => {
    const a = await api();
    await setServers({ alpha: echo('alpha'), failing: { ...echo('failing'), args: [echoPath(), '--exit-at-start=3'] } });
    const error = await until(a, 'failing in error', () => (status(a, 'failing')?.state === 'error' ? status(a, 'failing')?.error : undefined));
    assert.match(error ?? '', /code 3/);
    assert.match(error ?? '', /refusing to start: boom/);
    await setServers({ alpha: echo('alpha') });
    await until(a, 'failing removed', () => (status(a, 'failing') ? undefined : true));
  });

  it('a broken .vscode/mcp.json is a diagnostic on that file at its line, and every other server keeps running', async () => {
    const a = await api();
    const alphaPid = await until(a, 'alpha ready', () => readyPid(a, 'alpha'));
    const dir = join(folder(), '.vscode');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'mcp.json');
    created.push(file);
    const uri = vscode.Uri.file(file);
    const diagnostics = new Promise<vscode.Diagnostic[]>((resolve) => {
      const sub = vscode.languages.onDidChangeDiagnostics((e) => {
        const found = e.uris.some((u) => u.fsPath === uri.fsPath) ? vscode.languages.getDiagnostics(uri) : [];
        if (found.length === 0) return;
        sub.dispose();
        resolve(found);
      });
    });
    // Line 4: a server without a command; line 5: an unknown type.
    writeFileSync(
      file,
      '{\n  // my servers\n  "servers": {\n    "broken": { "args": ["x"] },\n    "odd": { "type": "carrier-pigeon", "command": "x" },\n  }\n}\n',
    );
    const found = await diagnostics;
    const byLine = found.map((d) => [d.range.start.line + 1, d.severity, d.message] as const).sort((x, y) => x[0] - y[0]);
    assert.equal(byLine.length, 2, JSON.stringify(byLine));
    assert.equal(byLine[0]![0], 4);
    assert.match(byLine[0]![2], /server "broken": missing "command"/);
    assert.equal(byLine[0]![1], vscode.DiagnosticSeverity.Error);
    assert.equal(byLine[1]![0], 5);
    assert.match(byLine[1]![2], /unknown type "carrier-pigeon"/);
    await a.serversApplied();
    assert.equal(readyPid(a, 'alpha'), alphaPid, "the setting's server kept running");
    assert.equal(status(a, 'workspace')?.state, 'ready');
    assert.equal(status(a, 'broken'), undefined, 'nothing was started for the broken server');

    // Bad JSON: the place of the syntax error.
    const again = new Promise<vscode.Diagnostic[]>((resolve) => {
      const sub = vscode.languages.onDidChangeDiagnostics(() => {
        const d = vscode.languages.getDiagnostics(uri);
        if (!d.some((x) => /expected|unexpected|closed/i.test(x.message))) return;
        sub.dispose();
        resolve(d);
      });
    });
    writeFileSync(file, '{\n  "servers": {\n    "x": { "command": "node" \n    "y": 1\n  }\n}\n');
    const syntax = await again;
    assert.ok(
      syntax.some((d) => d.range.start.line + 1 === 4 && /","/.test(d.message)),
      JSON.stringify(syntax.map((d) => [d.range.start.line + 1, d.message])),
    );
  });

  it('Add Server writes the chosen config file and the server starts without asking about what the person typed', async () => {
    const a = await api();
    const file = join(folder(), '.mcp.json');
    created.push(file);
    writeFileSync(file, '{\n  // kept: comments survive the edit\n  "mcpServers": {}\n}\n');
    await vscode.commands.executeCommand('mcpAgent.addServer', {
      kind: 'stdio',
      value: `'${process.execPath}' '${echoPath()}' --name=added`,
      name: 'added',
      target: file,
    });
    const text = readFileSync(file, 'utf8');
    assert.match(text, /\/\/ kept: comments survive the edit/);
    const written = JSON.parse(text.replace(/^\s*\/\/.*$/m, '')) as { mcpServers: Record<string, { command: string; args: string[] }> };
    assert.deepEqual(written.mcpServers.added, { type: 'stdio', command: process.execPath, args: [echoPath(), '--name=added'] });
    await until(a, 'added ready', () => readyPid(a, 'added'));
  });

  it("imports Claude Desktop's servers into mcpAgent.servers, keeping the ones already there", async () => {
    const a = await api();
    const dir = mkdtempSync(join(tmpdir(), 'claude-desktop-'));
    created.push(dir);
    const file = join(dir, 'claude_desktop_config.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          alpha: { command: 'nope' },
          fromDesktop: { command: process.execPath, args: [echoPath(), '--name=desk'], env: { ELECTRON_RUN_AS_NODE: '1' } },
          remote: { url: 'https://example.invalid/mcp' },
        },
        globalShortcut: 'x',
      }),
    );
    await vscode.commands.executeCommand('mcpAgent.importClaudeDesktopConfig', file);
    const servers = vscode.workspace.getConfiguration('mcpAgent').inspect<Record<string, { command?: string; url?: string }>>('servers')?.globalValue ?? {};
    assert.notEqual(servers.alpha?.command, 'nope', 'an existing server is not overwritten');
    assert.equal(servers.fromDesktop?.command, process.execPath);
    assert.equal(servers.remote?.url, 'https://example.invalid/mcp');
    await until(a, 'fromDesktop ready', () => readyPid(a, 'fromDesktop'));
  });
});
