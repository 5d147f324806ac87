// Loading several config files: names across sources, fingerprints, files that are missing, odd or hostile.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchLine, secretNames } from '../../src/core/mcp/config/definition-summary';
import { loadConfigFiles, type LoadContext } from '../../src/core/mcp/config/load';
import { MAX_SERVER_NAME_LENGTH, uniqueServerNames } from '../../src/core/mcp/config/server-names';
import { userConfigSource, workspaceConfigSources } from '../../src/core/mcp/config/sources';
import { BUNDLED_SERVER_NAMES } from '../../src/core/mcp/hub/bundled-servers';
import { nth } from '../support/nth';

const roots: string[] = [];
after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function dir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  roots.push(d);
  return d;
}

const ctx = (ws: string, env: NodeJS.ProcessEnv = {}): LoadContext => ({ workspaceFolder: ws, userHome: '/home/u', env });
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe('server names', () => {
  test('same name from different sources: both kept, the first plain, later ones -2, -3', () => {
    const ws = dir('names-');
    const user = join(dir('user-'), 'mine.json');
    writeFileSync(user, '{ "mcpServers": { "github": { "command": "gh-user" } } }');
    mkdirSync(join(ws, '.vscode'));
    writeFileSync(join(ws, '.vscode', 'mcp.json'), '{ "servers": { "github": { "command": "gh-vscode" }, "GitHub": { "command": "gh-case" } } }');
    writeFileSync(
      join(ws, '.mcp.json'),
      '{ "mcpServers": { "github": { "command": "gh-claude" }, "workspace": { "command": "w" }, "web": { "command": "x" } } }',
    );
    const files = loadConfigFiles([userConfigSource(user), ...workspaceConfigSources(ws)], ctx(ws));
    const named = files.flatMap((f) => f.definitions.map((d) => [d.name, launchLine(d), d.source.origin]));
    assert.deepEqual(named, [
      ['github', 'gh-user', 'user'],
      ['github-2', 'gh-vscode', 'workspace'],
      ['GitHub-3', 'gh-case', 'workspace'],
      ['github-4', 'gh-claude', 'workspace'],
      ['workspace-2', 'w', 'workspace'],
      ['web-2', 'x', 'workspace'],
    ]);
    // Loading again gives the same names.
    assert.deepEqual(
      loadConfigFiles([userConfigSource(user), ...workspaceConfigSources(ws)], ctx(ws)).flatMap((f) => f.definitions.map((d) => d.name)),
      named.map((n) => n[0]),
    );
  });

  test('never a bundled name; always valid inside <server>__<tool>; short enough to leave room for the tool', () => {
    const keys = [...BUNDLED_SERVER_NAMES, 'Orchestrator', 'my.server', 'my server', 'a__b', 'a___b', '日本語', '', '__', 'x'.repeat(100), 'x'.repeat(100)];
    const names = uniqueServerNames(keys);
    assert.deepEqual(names.slice(0, 5), ['workspace-2', 'web-2', 'research-2', 'orchestrator-2', 'Orchestrator-3']);
    assert.deepEqual(names.slice(5, 12), ['my_server', 'my_server-2', 'a_b', 'a_b-2', 'server', 'server-2', 'server-3']);
    assert.equal(names[12], 'x'.repeat(MAX_SERVER_NAME_LENGTH));
    assert.equal(names[13], `${'x'.repeat(MAX_SERVER_NAME_LENGTH - 2)}-2`);
    assert.equal(new Set(names.map((n) => n.toLowerCase())).size, names.length);
    for (const n of names) {
      assert.match(`${n}__read_file`, TOOL_NAME, n);
      assert.ok(!BUNDLED_SERVER_NAMES.includes(n as never));
      assert.ok(!n.includes('__'), `${n} holds the separator`);
    }
  });
});

describe('fingerprints', () => {
  const write = (ws: string, text: string): string => {
    writeFileSync(join(ws, '.mcp.json'), text);
    const file = nth(loadConfigFiles([nth(workspaceConfigSources(ws), 1)], ctx(ws, { TOKEN: 't1' })), 0);
    return nth(file.definitions, 0).fingerprint;
  };

  test('the same definition gives the same fingerprint; a change to what runs gives another', () => {
    const ws = dir('fp-');
    const base = write(ws, '{ "mcpServers": { "s": { "command": "node", "args": ["a.js"], "env": { "A": "1", "B": "${TOKEN}" } } } }');
    assert.match(base, /^[0-9a-f]{64}$/);
    assert.equal(
      write(ws, '// reformatted\n{ "mcpServers": {\n  "s": { "env": { "B": "${TOKEN}", "A": "1", }, "args": ["a.js"], "command": "node" },\n} }'),
      base,
      'layout, comments and key order do not count',
    );
    assert.equal(
      write(ws, '{ "mcpServers": { "renamed": { "command": "node", "args": ["a.js"], "env": { "A": "1", "B": "${TOKEN}" } } } }'),
      base,
      'nor the name',
    );
    assert.notEqual(write(ws, '{ "mcpServers": { "s": { "command": "node", "args": ["b.js"], "env": { "A": "1", "B": "${TOKEN}" } } } }'), base);
    assert.notEqual(write(ws, '{ "mcpServers": { "s": { "command": "node", "args": ["a.js"], "env": { "A": "2", "B": "${TOKEN}" } } } }'), base);
    assert.notEqual(
      write(ws, '{ "mcpServers": { "s": { "command": "node", "args": ["a.js"], "env": { "A": "1", "B": "${OTHER:-t1}" } } } }'),
      base,
      'a variable counts as the reference shown, not the value it has today',
    );
  });

  test("neither an input answer nor the value of the person's variable is part of it (secrets stay out); the reference is", () => {
    const ws = dir('fp-input-');
    mkdirSync(join(ws, '.vscode'));
    const text =
      '{ "servers": { "s": { "command": "x", "args": ["${input:k}", "${env:REGION}"] } }, "inputs": [{ "type": "promptString", "id": "k", "description": "k" }] }';
    writeFileSync(join(ws, '.vscode', 'mcp.json'), text);
    const fp = (env: NodeJS.ProcessEnv): string => nth(nth(loadConfigFiles([nth(workspaceConfigSources(ws), 0)], ctx(ws, env)), 0).definitions, 0).fingerprint;
    assert.equal(fp({ REGION: 'eu' }), fp({ REGION: 'eu' }));
    assert.equal(fp({ REGION: 'eu' }), fp({ REGION: 'us' }), 'a renewed value of the same variable is not a new server');
    const file = nth(loadConfigFiles([nth(workspaceConfigSources(ws), 0)], ctx(ws, { REGION: 'eu' })), 0);
    assert.equal(launchLine(nth(file.definitions, 0)), "x '${input:k}' '${env:REGION}'");
  });

  test("each value from the person's side that the question shows changes it when it changes, even to a variable with the same value", () => {
    const ws = dir('fp-person-');
    mkdirSync(join(ws, '.vscode'));
    mkdirSync(join(ws, 'sub'));
    const env = { A: 'same', B: 'same', SUB: 'sub' };
    const fp = (server: Record<string, unknown>): string => {
      writeFileSync(join(ws, '.vscode', 'mcp.json'), JSON.stringify({ servers: { s: server } }));
      return nth(nth(loadConfigFiles([nth(workspaceConfigSources(ws), 0)], ctx(ws, env)), 0).definitions, 0).fingerprint;
    };
    const pairs: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [
        { type: 'http', url: 'https://h.example/mcp', headers: { 'X-Client-Version': '${env:A}' } },
        { type: 'http', url: 'https://h.example/mcp', headers: { 'X-Client-Version': '${env:B}' } },
      ],
      [
        { type: 'http', url: 'https://h.example/${env:A}' },
        { type: 'http', url: 'https://h.example/${env:B}' },
      ],
      [
        { command: 'x', args: ['--v=${env:A}'] },
        { command: 'x', args: ['--v=${env:B}'] },
      ],
      [
        { command: 'x', env: { V: '${env:A}' } },
        { command: 'x', env: { V: '${env:B}' } },
      ],
      [
        { command: 'x', env: { V: 'same' } },
        { command: 'x', env: { V: '${env:A}' } },
      ],
      [
        { command: 'x', cwd: '${workspaceFolder}/sub' },
        { command: 'x', cwd: '${workspaceFolder}/${env:SUB}' },
      ],
    ];
    for (const [before, after] of pairs) assert.notEqual(fp(before), fp(after), JSON.stringify(after));
  });

  test("a reference never hashes like the same characters written as text (Claude's format leaves ${env:X} as written)", () => {
    const ws = dir('fp-literal-');
    mkdirSync(join(ws, '.vscode'));
    writeFileSync(
      join(ws, '.vscode', 'mcp.json'),
      '{ "servers": { "s": { "type": "http", "url": "https://h.example/mcp", "headers": { "X": "${env:GITHUB_TOKEN}" } } } }',
    );
    writeFileSync(
      join(ws, '.mcp.json'),
      '{ "mcpServers": { "s": { "type": "http", "url": "https://h.example/mcp", "headers": { "X": "${env:GITHUB_TOKEN}" } } } }',
    );
    const loaded = loadConfigFiles(workspaceConfigSources(ws), ctx(ws, { GITHUB_TOKEN: 't' }));
    const [vscode, claude] = [nth(loaded, 0), nth(loaded, 1)];
    assert.notEqual(nth(vscode.definitions, 0).fingerprint, nth(claude.definitions, 0).fingerprint);
  });

  test('a definition that takes nothing from the person keeps the fingerprint it always had, so answers given before still count', () => {
    const ws = dir('fp-stable-');
    writeFileSync(
      join(ws, '.mcp.json'),
      '{ "mcpServers": { "s": { "type": "http", "url": "https://x.example/mcp", "headers": { "Accept": "text/plain" } } } }',
    );
    const file = nth(loadConfigFiles(workspaceConfigSources(ws), ctx(ws)), 1);
    assert.equal(nth(file.definitions, 0).fingerprint, '8b9996c58791a0ccebd6e892b5748d29e5a2fd06005e50ed4db157865b8590af');
  });
});

describe('config files', () => {
  test('a workspace without config files has no servers and nothing to say; a missing --mcp-config is an error', () => {
    const ws = dir('empty-');
    const files = loadConfigFiles([...workspaceConfigSources(ws), userConfigSource(join(ws, 'nope.json'))], ctx(ws));
    assert.deepEqual(
      files.map((f) => [f.found, f.definitions.length, f.diagnostics.length]),
      [
        [false, 0, 0],
        [false, 0, 0],
        [false, 0, 1],
      ],
    );
    assert.deepEqual(nth(files, 2).diagnostics[0], {
      file: join(ws, 'nope.json'),
      severity: 'error',
      message: 'file not found: give the path of an existing MCP config file',
    });
  });

  test('a FIFO, a directory or a huge file in place of .mcp.json is refused at once', () => {
    const ws = dir('odd-');
    execFileSync('mkfifo', [join(ws, '.mcp.json')]);
    mkdirSync(join(ws, '.vscode', 'mcp.json'), { recursive: true });
    const started = Date.now();
    const files = loadConfigFiles(workspaceConfigSources(ws), ctx(ws));
    assert.ok(Date.now() - started < 10_000, 'did not wait for a writer');
    assert.deepEqual(
      files.map((f) => f.diagnostics.map((d) => d.message)),
      [['not a regular file: give the path of an MCP config file (JSON)'], ['not a regular file: give the path of an MCP config file (JSON)']],
    );
    const big = join(ws, 'big.json');
    writeFileSync(big, `{ "mcpServers": {}, "pad": "${'x'.repeat(2 * 1024 * 1024)}" }`);
    assert.match(nth(nth(loadConfigFiles([userConfigSource(big)], ctx(ws)), 0).diagnostics, 0).message, /too big for an MCP config file/);
  });

  test('a server defined twice in one file: the first is used, the second is pointed at', () => {
    const ws = dir('dup-');
    writeFileSync(join(ws, '.mcp.json'), '{\n  "mcpServers": {\n    "s": { "command": "first" },\n    "s": { "command": "second" }\n  }\n}');
    const file = nth(loadConfigFiles(workspaceConfigSources(ws), ctx(ws)), 1);
    assert.deepEqual(file.definitions.map(launchLine), ['first']);
    assert.deepEqual(
      file.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`),
      ['4:5 server "s" is defined twice; this later definition is ignored'],
    );
  });

  test('the summary shown before trust: the command line quoted for reading, env and header names only', () => {
    const ws = dir('summary-');
    writeFileSync(
      join(ws, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          s: { command: 'node', args: ['srv.js', '; rm -rf ~', "it's", '$(id)'], env: { API_KEY: 'hunter2', DEBUG: '1' } },
          h: { type: 'http', url: 'https://x.example/mcp', headers: { Authorization: 'Bearer hunter2' } },
        },
      }),
    );
    const file = nth(loadConfigFiles(workspaceConfigSources(ws), ctx(ws)), 1);
    const [s, h] = [nth(file.definitions, 0), nth(file.definitions, 1)];
    assert.equal(launchLine(s), "node srv.js '; rm -rf ~' 'it'\\''s' '$(id)'");
    assert.deepEqual(secretNames(s), ['API_KEY', 'DEBUG']);
    assert.equal(launchLine(h), 'HTTP https://x.example/mcp');
    assert.deepEqual(secretNames(h), ['Authorization']);
  });
});
