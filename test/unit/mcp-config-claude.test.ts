// Claude's mcpServers format (.mcp.json, --mcp-config) read from real files.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigDiagnostic } from '../../src/core/mcp/config/diagnostic';
import { expandEnvReferences } from '../../src/core/mcp/config/env-expansion';
import { loadConfigFiles, type LoadedFile } from '../../src/core/mcp/config/load';
import { resolveServers } from '../../src/core/mcp/config/resolve';
import { render } from '../../src/core/mcp/config/template';
import { userConfigSource, workspaceConfigSources } from '../../src/core/mcp/config/sources';
import type { ServerConfig } from '../../src/core/mcp/types';
import { nth } from '../support/nth';

const roots: string[] = [];
after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function workspace(mcpJson: string): string {
  const ws = mkdtempSync(join(tmpdir(), 'claude-mcp-json-'));
  roots.push(ws);
  writeFileSync(join(ws, '.mcp.json'), mcpJson);
  return ws;
}

function load(ws: string, env: NodeJS.ProcessEnv = {}): LoadedFile {
  return nth(loadConfigFiles([nth(workspaceConfigSources(ws), 1)], { workspaceFolder: ws, userHome: '/home/u', env }), 0);
}

async function configs(file: LoadedFile): Promise<Array<Omit<ServerConfig, 'source'>>> {
  const { servers } = await resolveServers(file.definitions, async () => undefined);
  return servers.map(({ config: { source: _source, ...rest } }) => rest);
}

const at = (d: ConfigDiagnostic): string => `${d.line}:${d.column} ${d.severity}: ${d.message}`;

/** `line:column` (1-based) of the first `needle` on line `line` of `text`: counted apart from the code under test. */
function pos(text: string, line: number, needle: string, plus = 0): string {
  const column = nth(text.split('\n'), line - 1, 'line').indexOf(needle);
  assert.notEqual(column, -1, `${needle} is not on line ${line}`);
  return `${line}:${column + 1 + plus}`;
}

describe("Claude's mcpServers format", () => {
  test('comments, trailing commas, no type means stdio, http and sse', async () => {
    const ws = workspace(`{
  // Claude Code's project servers
  "mcpServers": {
    "files": { "command": "npx", "args": ["-y", "some-server",], "env": { "LEVEL": "debug", }, },
    "explicit": { "type": "stdio", "command": "python3", },
    "remote": { "type": "http", "url": "https://mcp.example.com/mcp", "headers": { "X-Team": "blue" } },
    "old": { "type": "sse", "url": "http://localhost:8080/sse" },
  },
}`);
    const file = load(ws);
    assert.deepEqual(file.diagnostics, []);
    assert.deepEqual(await configs(file), [
      { name: 'files', transport: 'stdio', command: 'npx', args: ['-y', 'some-server'], env: { LEVEL: 'debug' }, cwd: ws },
      { name: 'explicit', transport: 'stdio', command: 'python3', args: [], env: {}, cwd: ws },
      { name: 'remote', transport: 'http', url: 'https://mcp.example.com/mcp', headers: { 'X-Team': 'blue' } },
      { name: 'old', transport: 'sse', url: 'http://localhost:8080/sse', headers: {} },
    ]);
  });

  test('${VAR} and ${VAR:-default} in command, args, env, url and headers', async () => {
    const ws = workspace(`{
  "mcpServers": {
    "s": {
      "command": "\${BIN_DIR}/server",
      "args": ["--port=\${PORT:-8080}", "--mode=\${MODE:-dev}", "--empty=\${EMPTY:-fallback}", "\${EMPTY}", "$HOME", "\${1BAD}"],
      "env": { "TOKEN": "\${TOKEN}", "REGION": "\${REGION:-eu-west-1}" }
    },
    "h": { "type": "http", "url": "\${BASE:-https://api.example.com}/mcp", "headers": { "Authorization": "Bearer \${TOKEN}" } }
  }
}`);
    const env = { BIN_DIR: '/opt/bin', MODE: 'prod', EMPTY: '', TOKEN: 'tok-${MODE}', HOME: '/root' };
    const file = load(ws, env);
    assert.deepEqual(file.diagnostics, []);
    assert.deepEqual(await configs(file), [
      {
        name: 's',
        transport: 'stdio',
        command: '/opt/bin/server',
        // Unset and empty both take the default, as in a shell; a value is not expanded again; $HOME without braces is left alone.
        args: ['--port=8080', '--mode=prod', '--empty=fallback', '', '$HOME', '${1BAD}'],
        env: { TOKEN: 'tok-${MODE}', REGION: 'eu-west-1' },
        cwd: ws,
      },
      { name: 'h', transport: 'http', url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer tok-${MODE}' } },
    ]);
  });

  test('an unset ${VAR} without a default is an error pointing at it; the other servers load', () => {
    const text = `{
  "mcpServers": {
    "needs": { "command": "x", "env": { "KEY": "\${API_KEY}" } },
    "fine": { "command": "y" }
  }
}`;
    const file = load(workspace(text));
    assert.deepEqual(file.diagnostics.map(at), [
      `${pos(text, 3, '"${API_KEY}"')} error: server "needs": \${API_KEY} is not set: set API_KEY in the environment, or give a default with \${API_KEY:-default}`,
    ]);
    assert.deepEqual(
      file.definitions.map((d) => d.key),
      ['fine'],
    );
  });

  test('bad JSON, an unknown type, a missing command, a non-string argument: line, column, and what to do', () => {
    const text = `{
  "mcpServers": {
    "ws": { "type": "websocket", "command": "x" },
    "remote": { "url": "https://example.com/mcp" },
    "arg": { "command": "node", "args": ["server.js", true] },
    "envs": { "command": "node", "env": { "PORT": 8080 } },
    "http": { "type": "http" },
    "good": { "command": "node" },
    "broken": { "command": "x", },,
  }
}`;
    const file = load(workspace(text));
    assert.deepEqual(file.diagnostics.map(at), [
      `${pos(text, 3, '"websocket"')} error: server "ws": unknown type "websocket": use "stdio" (a program to run), "http" or "sse" (a server at a URL), or leave it out for stdio`,
      `${pos(text, 4, '"remote"')} error: server "remote": missing "command" (the program to run, e.g. "npx"; for a server at a URL add "type": "http" and "url")`,
      `${pos(text, 5, 'true')} error: server "arg": "args[1]" must be a string, not true or false`,
      `${pos(text, 6, '8080')} error: server "envs": "env.PORT" must be a string, not a number`,
      `${pos(text, 7, '"http"')} error: server "http": missing "url" (the server's address, e.g. "https://example.com/mcp")`,
      `${pos(text, 9, ',,', 1)} error: not valid JSON: expected a property name in double quotes`,
    ]);
    assert.deepEqual(
      file.definitions.map((d) => d.key),
      ['good', 'broken'],
    );
  });

  test('a file that is not an object, or mcpServers that is not one, says so', () => {
    assert.deepEqual(load(workspace('[1, 2]')).diagnostics.map(at), ['1:1 error: the file must hold a JSON object with "mcpServers"']);
    assert.deepEqual(load(workspace('{ "mcpServers": ["a"] }')).diagnostics.map(at), [
      '1:17 error: "mcpServers" must be an object mapping each server\'s name to its definition',
    ]);
    assert.deepEqual(load(workspace('{ "mcpServers": { "a": "npx a" } }')).diagnostics.map(at), [
      '1:24 error: server "a" must be an object (with "command", or "url" for an HTTP server)',
    ]);
    assert.deepEqual(load(workspace('')).diagnostics, [], 'an empty file is no servers');
  });

  test('--mcp-config files are user-given; their servers are tagged so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'user-config-'));
    roots.push(dir);
    writeFileSync(join(dir, 'servers.json'), '{ "mcpServers": { "mine": { "command": "mine" } } }');
    const file = nth(loadConfigFiles([userConfigSource(join(dir, 'servers.json'))], { workspaceFolder: dir, userHome: '/h', env: {} }), 0);
    const { servers } = await resolveServers(file.definitions, async () => undefined);
    assert.deepEqual(nth(servers, 0).config.source, { file: join(dir, 'servers.json'), format: 'claude', origin: 'user', key: 'mine' });
  });

  test('expansion is one pass over the text', () => {
    const expanded = (text: string, env: NodeJS.ProcessEnv): { value: string; missing: string[] } => {
      const { template, missing } = expandEnvReferences(text, env);
      return { value: render(template, () => ''), missing };
    };
    assert.deepEqual(expanded('${A}${B:-${A}}', { A: '${B}' }), { value: '${B}${A}', missing: [] });
    assert.deepEqual(expanded('${X}-${Y}', {}), { value: '-', missing: ['X', 'Y'] });
  });

  test('each reference keeps how it was written beside its value, so it can be shown instead of the value', () => {
    assert.deepEqual(expandEnvReferences('Bearer ${TOKEN}', { TOKEN: 'tok-1' }).template, ['Bearer ', { variable: '${TOKEN}', value: 'tok-1' }]);
    assert.deepEqual(expandEnvReferences('${PORT:-8080}/x', {}).template, [{ variable: '${PORT:-8080}', value: '8080' }, '/x']);
    assert.deepEqual(expandEnvReferences('plain', {}).template, ['plain']);
    assert.deepEqual(expandEnvReferences('', {}).template, ['']);
  });
});
