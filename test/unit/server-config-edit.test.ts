// What Add Server and the Claude Desktop import write: a typed command line split without a shell,
// entries added to a config file with its comments kept, Claude Desktop's servers taken over.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { loadConfigFiles } from '../../src/core/mcp/config/load';
import { join } from 'node:path';
import {
  addServerToFile,
  writeConfig,
  entryFromCommandLine,
  entryFromUrl,
  serversFromClaudeDesktop,
  suggestedName,
} from '../../src/core/mcp/config/server-config-edit';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('Add Server input', () => {
  test('a command line is split as a shell would split it, quotes included, and never given to one', () => {
    assert.deepEqual(entryFromCommandLine(`npx -y "@scope/my server" --root '/a b' $HOME`), {
      type: 'stdio',
      command: 'npx',
      args: ['-y', '@scope/my server', '--root', '/a b', '$HOME'],
    });
  });

  test('shell operators are refused with the reason, not run', () => {
    assert.throws(() => entryFromCommandLine('node server.js | tee log'), /"\|" would need a shell/);
    assert.throws(() => entryFromCommandLine('node a.js && rm -rf ~'), /"&&" would need a shell/);
    assert.throws(() => entryFromCommandLine('   '), /type the program to run/);
  });

  test('a URL must be http(s); names are suggested from the package or host', () => {
    assert.throws(() => entryFromUrl('file:///etc/passwd'), /must start with http:\/\/ or https:\/\//);
    assert.equal(suggestedName(entryFromUrl('https://mcp.example.com/mcp')), 'example');
    assert.equal(suggestedName(entryFromCommandLine('npx -y @modelcontextprotocol/server-memory@1.2.0')), 'memory');
    assert.equal(suggestedName(entryFromCommandLine('node /srv/mcp-echo.js --name=x')), 'echo');
  });

  test('adding to a file keeps its comments and other servers; the fingerprint is the one the loader gives', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'add-server-'));
    dirs.push(ws);
    const file = join(ws, 'missing', '.mcp.json');
    const first = await addServerToFile({ file, format: 'claude', origin: 'workspace' }, ws, 'one', entryFromCommandLine('node one.js'));
    assert.deepEqual(JSON.parse(first.text), { mcpServers: { one: { type: 'stdio', command: 'node', args: ['one.js'] } } });
    assert.match(first.fingerprint ?? '', /^[0-9a-f]{64}$/);
    await writeConfig(file, `// team servers\n${first.text}`);
    const second = await addServerToFile({ file, format: 'claude', origin: 'workspace' }, ws, 'two', entryFromUrl('http://127.0.0.1:3000/mcp'));
    assert.match(second.text, /^\/\/ team servers\n/);
    assert.deepEqual(Object.keys(JSON.parse(second.text.replace(/^\/\/.*\n/, '')).mcpServers), ['one', 'two']);
    await writeConfig(file, second.text);
    const [loaded] = loadConfigFiles([{ file, format: 'claude', origin: 'workspace' }], { workspaceFolder: ws, userHome: homedir(), env: process.env });
    assert.equal(loaded!.definitions.find((d) => d.key === 'two')?.fingerprint, second.fingerprint);
  });
});

describe('Claude Desktop import', () => {
  test("takes command/args/env and url servers, drops Claude's other keys, names what it skipped", () => {
    const { servers, skipped } = serversFromClaudeDesktop(
      JSON.stringify({
        globalShortcut: 'x',
        mcpServers: {
          fs: { command: 'npx', args: ['-y', 'fs', 3], env: { A: '1', B: 2 }, disabled: true },
          remote: { type: 'sse', url: 'https://x.example/sse' },
          odd: { foo: 1 },
        },
      }),
    );
    assert.deepEqual(servers, {
      fs: { type: 'stdio', command: 'npx', args: ['-y', 'fs'], env: { A: '1' } },
      remote: { type: 'sse', url: 'https://x.example/sse' },
    });
    assert.deepEqual(skipped, ['odd']);
    assert.throws(() => serversFromClaudeDesktop('{"preferences": {}}'), /no "mcpServers"/);
  });
});
