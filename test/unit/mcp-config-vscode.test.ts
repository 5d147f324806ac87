// .vscode/mcp.json: VS Code's format read from real files in a temp workspace.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, sep } from 'node:path';
import type { ConfigSource } from '../../src/core/mcp/config/definition';
import { formatDiagnostic, type ConfigDiagnostic } from '../../src/core/mcp/config/diagnostic';
import { loadConfigFiles, type LoadContext, type LoadedFile } from '../../src/core/mcp/config/load';
import { resolveServers } from '../../src/core/mcp/config/resolve';
import { workspaceConfigSources } from '../../src/core/mcp/config/sources';
import type { AskInput, InputRequest } from '../../src/core/mcp/config/vscode-inputs';
import type { HttpServerConfig, StdioServerConfig } from '../../src/core/mcp/types';
import { nth } from '../support/nth';

const roots: string[] = [];
after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function workspace(mcpJson: string): string {
  const ws = mkdtempSync(join(tmpdir(), 'vscode-mcp-json-'));
  roots.push(ws);
  mkdirSync(join(ws, '.vscode'));
  writeFileSync(join(ws, '.vscode', 'mcp.json'), mcpJson);
  return ws;
}

const context = (ws: string, env: NodeJS.ProcessEnv = {}): LoadContext => ({ workspaceFolder: ws, userHome: '/home/someone', env });

function load(ws: string, env?: NodeJS.ProcessEnv): LoadedFile {
  const source: ConfigSource = nth(workspaceConfigSources(ws), 0);
  return nth(loadConfigFiles([source], context(ws, env)), 0);
}

/** An ask that answers from `answers` and records every question. */
function asker(answers: Record<string, string | undefined>): AskInput & { asked: InputRequest[] } {
  const asked: InputRequest[] = [];
  const ask: AskInput = async (input) => {
    asked.push(input);
    return answers[input.id];
  };
  return Object.assign(ask, { asked });
}

const at = (d: ConfigDiagnostic): string => `${d.line}:${d.column} ${d.severity}: ${d.message}`;

describe('.vscode/mcp.json', () => {
  test('comments, trailing commas and every variable', async () => {
    const ws = workspace(`{
  // VS Code's own comments are fine
  "servers": {
    "files": {
      "type": "stdio",
      "command": "\${userHome}\${/}bin\${pathSeparator}server",
      "args": ["\${workspaceFolder}", "\${workspaceFolderBasename}", "--token=\${input:token}", "\${env:SHELLY}", "[\${env:UNSET_THING}]",],
      "env": { "HOME_DIR": "\${userHome}", "N": 3, "GONE": null, "KEY": "\${input:token}" },
      /* block comments too */
    },
  },
  "inputs": [
    { "type": "promptString", "id": "token", "description": "API token", "password": true, },
  ],
}`);
    const file = load(ws, { SHELLY: 'zsh' });
    assert.deepEqual(file.diagnostics, []);
    assert.equal(file.definitions.length, 1);
    const ask = asker({ token: 's3cret' });
    const { servers, diagnostics } = await resolveServers(file.definitions, ask);
    assert.deepEqual(diagnostics, []);
    const config = nth(servers, 0).config as StdioServerConfig;
    assert.equal(config.name, 'files');
    assert.equal(config.command, `/home/someone${sep}bin${sep}server`);
    assert.deepEqual(config.args, [ws, basename(ws), '--token=s3cret', 'zsh', '[]']);
    assert.deepEqual(config.env, { HOME_DIR: '/home/someone', N: '3', KEY: 's3cret' });
    assert.equal(config.cwd, ws, 'a workspace server runs in the workspace folder by default');
    assert.deepEqual(config.source, { file: join(ws, '.vscode', 'mcp.json'), format: 'vscode', origin: 'workspace', key: 'files' });
    assert.deepEqual(ask.asked, [{ id: 'token', type: 'promptString', description: 'API token', password: true }], 'asked once though used twice');
  });

  test('each input is asked at most once per load, however many servers use it; pickString offers its choices', async () => {
    const ws = workspace(`{
  "servers": {
    "a": { "command": "a", "args": ["\${input:region}", "\${input:key}"] },
    "b": { "command": "b", "env": { "K": "\${input:key}" } },
    "c": { "command": "c", "args": ["\${input:key}", "\${input:key}"] }
  },
  "inputs": [
    { "type": "promptString", "id": "key", "description": "Key", "password": true },
    { "type": "pickString", "id": "region", "description": "Region", "options": ["eu", { "label": "United States", "value": "us" }], "default": "eu" }
  ]
}`);
    const ask = asker({ key: 'k1', region: 'us' });
    const { servers } = await resolveServers(load(ws).definitions, ask);
    assert.deepEqual(
      ask.asked.map((i) => i.id),
      ['region', 'key'],
    );
    assert.deepEqual(nth(ask.asked, 0).options, [
      { label: 'eu', value: 'eu' },
      { label: 'United States', value: 'us' },
    ]);
    assert.equal(nth(ask.asked, 0).default, 'eu');
    assert.deepEqual(
      servers.map((s) => (s.config as StdioServerConfig).args),
      [['us', 'k1'], [], ['k1', 'k1']],
    );
    assert.deepEqual((nth(servers, 1).config as StdioServerConfig).env, { K: 'k1' });
  });

  test('an input left unanswered skips only the servers that need it, and is not asked again', async () => {
    const ws = workspace(`{
  "servers": {
    "needs": { "command": "x", "args": ["\${input:key}"] },
    "also": { "command": "y", "args": ["\${input:key}"] },
    "free": { "command": "z" }
  },
  "inputs": [{ "type": "promptString", "id": "key", "description": "Key" }]
}`);
    const ask = asker({});
    const { servers, diagnostics } = await resolveServers(load(ws).definitions, ask);
    assert.deepEqual(
      servers.map((s) => s.config.name),
      ['free'],
    );
    assert.equal(ask.asked.length, 1);
    assert.deepEqual(diagnostics.map(at), [
      '3:5 error: server "needs" was not started: input "key" was not answered',
      '4:5 error: server "also" was not started: input "key" was not answered',
    ]);
  });

  test('an input that is not declared, or an unknown variable, is pointed at', () => {
    const ws = workspace(`{
  "servers": {
    "x": { "command": "x", "args": ["\${input:nope}"] },
    "y": { "command": "y", "args": ["\${config:editor.fontSize}"] }
  }
}`);
    const file = load(ws);
    assert.deepEqual(file.diagnostics.map(at), [
      '3:37 error: server "x": ${input:nope} is not declared: add an input with "id": "nope" to "inputs"',
      '4:37 warning: server "y": ${config:editor.fontSize} is not a variable this host knows (it knows ${workspaceFolder}, ${workspaceFolderBasename}, ${userHome}, ${env:NAME}, ${input:id}); it is passed on as written',
    ]);
    assert.deepEqual(
      file.definitions.map((d) => d.key),
      ['y'],
    );
  });

  test('bad JSON: the line and column of the mistake, and the servers around it still load', () => {
    const ws = workspace(`{
  "servers": {
    "before": { "command": "a" },
    "broken": { "command": "b" "args": [] },
    "after": { "command": "c" }
  }
}`);
    const file = load(ws);
    assert.deepEqual(file.diagnostics.map(at), ['4:32 error: not valid JSON: expected "," between entries']);
    assert.equal(formatDiagnostic(nth(file.diagnostics, 0)), `${join(ws, '.vscode', 'mcp.json')}:4:32: error: not valid JSON: expected "," between entries`);
    assert.deepEqual(
      file.definitions.map((d) => d.key),
      ['before', 'after'],
    );
  });

  test('an unknown type, a missing command and a non-string argument: each pointed at; the valid server loads', () => {
    const ws = workspace(`{
  "servers": {
    "socket": { "type": "websocket", "url": "ws://x" },
    "nothing": { "args": ["a"] },
    "empty": { "type": "stdio" },
    "numbers": { "command": "node", "args": ["ok", 42] },
    "good": { "command": "node", "args": ["server.js"] }
  }
}`);
    const file = load(ws);
    assert.deepEqual(file.diagnostics.map(at), [
      '3:25 error: server "socket": unknown type "websocket": use "stdio" (a program to run), "http" or "sse" (a server at a URL)',
      '4:5 error: server "nothing": missing "command" (the program to run, e.g. "npx"), or "url" for an HTTP server',
      '5:5 error: server "empty": missing "command" (the program to run, e.g. "npx")',
      '6:52 error: server "numbers": "args[1]" must be a string, not a number',
    ]);
    assert.deepEqual(
      file.definitions.map((d) => d.key),
      ['good'],
    );
  });

  test('http and sse servers: url and headers with variables; a type is inferred from url; a bad URL is refused', async () => {
    const ws = workspace(`{
  "servers": {
    "remote": { "type": "http", "url": "https://mcp.example.com/\${env:TEAM}", "headers": { "Authorization": "Bearer \${input:tok}" } },
    "legacy": { "type": "sse", "url": "http://127.0.0.1:9000/sse" },
    "inferred": { "url": "https://example.com/mcp" },
    "ftp": { "type": "http", "url": "ftp://example.com" }
  },
  "inputs": [{ "type": "promptString", "id": "tok", "description": "Token", "password": true }]
}`);
    const file = load(ws, { TEAM: 'blue' });
    assert.deepEqual(file.diagnostics.map(at), ['6:37 error: server "ftp": "url" must start with http:// or https://, not ftp://']);
    const { servers } = await resolveServers(file.definitions, asker({ tok: 't' }));
    assert.deepEqual(
      servers.map((s) => {
        const { source: _source, ...rest } = s.config as HttpServerConfig;
        return rest;
      }),
      [
        { name: 'remote', transport: 'http', url: 'https://mcp.example.com/blue', headers: { Authorization: 'Bearer t' } },
        { name: 'legacy', transport: 'sse', url: 'http://127.0.0.1:9000/sse', headers: {} },
        { name: 'inferred', transport: 'http', url: 'https://example.com/mcp', headers: {} },
      ],
    );
  });

  test('envFile: dotenv rules, env wins over it, relative to the workspace', async () => {
    const ws = workspace(
      `{ "servers": { "s": { "command": "s", "envFile": "\${workspaceFolder}/.env", "env": { "B": "from env" } }, "t": { "command": "t", "envFile": "config/dev.env" } } }`,
    );
    writeFileSync(join(ws, '.env'), '# a comment\nA=1\nB=from file\nexport C="quoted value"\nD=\'${NOT_EXPANDED}\'\n');
    mkdirSync(join(ws, 'config'));
    writeFileSync(join(ws, 'config', 'dev.env'), 'E=5\n');
    const file = load(ws);
    assert.deepEqual(file.diagnostics, []);
    const { servers } = await resolveServers(file.definitions, asker({}));
    assert.deepEqual((nth(servers, 0).config as StdioServerConfig).env, { A: '1', B: 'from env', C: 'quoted value', D: '${NOT_EXPANDED}' });
    assert.deepEqual((nth(servers, 1).config as StdioServerConfig).env, { E: '5' });
  });

  test('envFile or cwd outside the workspace folder is refused for a workspace server (.., absolute, symlink)', () => {
    const outside = mkdtempSync(join(tmpdir(), 'outside-'));
    roots.push(outside);
    writeFileSync(join(outside, 'secrets.env'), 'AWS_SECRET=x\n');
    const ws = workspace(`{
  "servers": {
    "dotdot": { "command": "x", "envFile": "../${basename(outside)}/secrets.env" },
    "absolute": { "command": "x", "envFile": "${outside}/secrets.env" },
    "linked": { "command": "x", "envFile": "link/secrets.env" },
    "cwdUp": { "command": "x", "cwd": "\${workspaceFolder}/.." },
    "cwdLink": { "command": "x", "cwd": "link" },
    "cwdHome": { "command": "x", "cwd": "\${userHome}" },
    "inside": { "command": "x", "cwd": "sub" }
  }
}`);
    symlinkSync(outside, join(ws, 'link'));
    mkdirSync(join(ws, 'sub'));
    const file = load(ws);
    const lines = file.diagnostics.map(at);
    assert.equal(lines.length, 6, lines.join('\n'));
    for (const [i, field] of ['envFile', 'envFile', 'envFile', 'cwd', 'cwd', 'cwd'].entries()) {
      assert.match(nth(lines, i, 'line'), new RegExp(`^${i + 3}:\\d+ error: server "\\w+": "${field}" is outside the workspace folder`));
    }
    assert.deepEqual(
      file.definitions.map((d) => d.key),
      ['inside'],
    );
    const d = nth(file.definitions, 0);
    assert.equal(d.transport === 'stdio' && d.cwd, join(ws, 'sub'));
  });

  test('a missing envFile names the file; cwd and envFile cannot come from an input', () => {
    const ws = workspace(`{
  "servers": {
    "gone": { "command": "x", "envFile": ".env.local" },
    "hidden": { "command": "x", "cwd": "\${input:dir}" }
  },
  "inputs": [{ "type": "promptString", "id": "dir", "description": "Dir" }]
}`);
    assert.deepEqual(load(ws).diagnostics.map(at), [
      `3:42 error: server "gone": envFile ${join(ws, '.env.local')} does not exist`,
      '4:40 error: server "hidden": "cwd" cannot use ${input:...}: where a server runs and what it reads must be visible in the file',
    ]);
  });

  test("Claude's mcpServers in .vscode/mcp.json gets a hint; broken inputs are pointed at", () => {
    const ws = workspace(`{
  "mcpServers": { "x": { "command": "x" } },
  "inputs": [{ "type": "command", "id": "c" }, { "type": "pickString", "id": "p", "options": [] }]
}`);
    assert.deepEqual(load(ws).diagnostics.map(at), [
      '2:3 warning: this file uses Claude\'s "mcpServers"; .vscode/mcp.json lists servers under "servers" (VS Code\'s format)',
      '3:24 error: input 1: type "command" is not supported here: use "promptString" or "pickString"',
      '3:94 error: input 2: "options" must list at least one choice',
    ]);
  });
});
