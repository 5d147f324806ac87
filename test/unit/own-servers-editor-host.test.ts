// A folder's .vscode/mcp.json left to VS Code's own MCP host (mcpAgent.vscodeMcpJsonHost = "vscode"): MCP Agent
// neither asks about its servers nor starts them, and says why; .mcp.json and the setting stay MCP Agent's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readOwnSources } from '../../src/core/mcp/config/own-server-sources';
import { HELD_TEXT, OwnServers, type ServerTrustAnswers } from '../../src/core/mcp/config/own-servers';
import type { ConfigSource, ServerDefinition } from '../../src/core/mcp/config/definition';

function trust(): ServerTrustAnswers & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    asked,
    answer: () => undefined,
    ask: async (_label: string, definitions: readonly ServerDefinition[]) => (asked.push(definitions.map((d) => d.name)), 'trusted'),
  };
}

const vscodeFiles = (s: ConfigSource): boolean => s.format === 'vscode' && s.origin === 'workspace';

test('servers of a .vscode/mcp.json left to the editor are neither asked about nor started; the others are as before', async (t) => {
  const ws = mkdtempSync(join(tmpdir(), 'own-editor-host-'));
  t.after(() => rmSync(ws, { recursive: true, force: true }));
  mkdirSync(join(ws, '.vscode'));
  writeFileSync(join(ws, '.vscode', 'mcp.json'), JSON.stringify({ servers: { notes: { command: 'node', args: ['notes.js'] } } }));
  writeFileSync(join(ws, '.mcp.json'), JSON.stringify({ mcpServers: { db: { command: 'node', args: ['db.js'] } } }));
  const answers = trust();
  const own = new OwnServers({
    trust: answers,
    inputs: { ask: async () => undefined },
    disabled: { has: () => false },
    diagnostics: { publish: () => undefined },
    shellPath: async () => undefined,
  });
  const read = readOwnSources([ws], { mine: { command: 'node', args: ['mine.js'] } }, {});

  const left = await own.decide(read, true, { leftToEditor: vscodeFiles });
  const held = (sources: typeof left): Array<[string, string | undefined, boolean]> =>
    sources.flatMap((s) => s.servers.map((o): [string, string | undefined, boolean] => [o.definition.name, o.held, o.config !== undefined]));
  assert.deepEqual(held(left), [
    ['mine', undefined, true],
    ['notes', 'editor-host', false],
    ['db', undefined, true],
  ]);
  assert.deepEqual(answers.asked, [['db']], 'only .mcp.json is asked about');
  assert.equal(HELD_TEXT['editor-host'], "left to VS Code's MCP host");

  // The default (MCP Agent runs them): the same file is asked about and started, as before the setting existed.
  const ours = await own.decide(read, true);
  assert.deepEqual(held(ours)[1], ['notes', undefined, true]);
  assert.deepEqual(answers.asked, [['db'], ['notes'], ['db']]);
});
