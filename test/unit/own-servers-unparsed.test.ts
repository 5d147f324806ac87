// A workspace's .vscode/mcp.json that does not parse (being written, or broken) is never asked about: what
// half of it says is not what it will run. Once it parses, the question comes as usual.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readOwnSources } from '../../src/core/mcp/config/own-server-sources';
import { OwnServers, type ServerTrustAnswers } from '../../src/core/mcp/config/own-servers';
import type { ServerDefinition } from '../../src/core/mcp/config/definition';

/** The person's answers as the editor keeps them: none yet; each question is recorded and answered "trusted". */
function trust(): ServerTrustAnswers & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    asked,
    answer: () => undefined,
    ask: async (_label: string, definitions: readonly ServerDefinition[]) => (asked.push(definitions.map((d) => d.name)), 'trusted'),
  };
}

test('a half-written mcp.json is not asked about; its servers wait, saying why; the finished file is asked about', async (t) => {
  const ws = mkdtempSync(join(tmpdir(), 'own-unparsed-'));
  t.after(() => rmSync(ws, { recursive: true, force: true }));
  mkdirSync(join(ws, '.vscode'));
  const file = join(ws, '.vscode', 'mcp.json');
  // Mid-edit: the first server is whole, the second half typed.
  writeFileSync(file, '{ "servers": { "notes": { "command": "node", "args": ["server.js"] }, "second": { "comm');
  const answers = trust();
  const own = new OwnServers({
    trust: answers,
    inputs: { ask: async () => undefined },
    disabled: { has: () => false },
    diagnostics: { publish: () => undefined },
    shellPath: async () => undefined,
  });

  const [half] = await own.decide(
    readOwnSources([ws], undefined, {}).filter((s) => s.found),
    true,
  );
  assert.deepEqual(answers.asked, [], 'no question about a file that does not parse');
  assert.deepEqual(
    half!.servers.map((s) => [s.definition.name, s.held]).filter(([name]) => name === 'notes'),
    [['notes', 'unparsed']],
  );
  assert.ok(half!.diagnostics.some((d) => d.syntax && /not valid JSON/.test(d.message)));

  writeFileSync(file, JSON.stringify({ servers: { notes: { command: 'node', args: ['server.js', '--token=x'] } } }));
  const [whole] = await own.decide(
    readOwnSources([ws], undefined, {}).filter((s) => s.found),
    true,
  );
  assert.deepEqual(answers.asked, [['notes']]);
  assert.equal(whole!.servers[0]!.held, undefined);
});
