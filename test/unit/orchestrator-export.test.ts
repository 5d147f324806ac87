// The person's mcpAgent.servers reach the orchestrator as a file its reader takes, so a sub-agent's
// definition may name one in the extension as in the CLI; servers that need the window's inputs stay out.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orchestratorServers, writeOrchestratorServers } from '../../src/core/mcp/config/orchestrator-export';
import { loadPersonServers } from '../../servers/orchestrator/person-servers';
import { PERSON_SERVERS_ENV } from '../../src/core/mcp/hub/bundled-servers';

describe("the person's servers for the orchestrator", () => {
  test('written for the orchestrator reader: stdio and http kept, an ${input:} server left out and said', async () => {
    const setting = {
      notes: { type: 'stdio', command: 'node', args: ['notes.js'], env: { TOKEN: 'x' } },
      remote: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
      secret: { type: 'stdio', command: 'node', env: { KEY: '${input:key}' } },
    };
    const exported = orchestratorServers(setting);
    assert.deepEqual(exported?.left, ['secret (it asks for an input, which only the window can)']);
    const dir = mkdtempSync(join(tmpdir(), 'orch-export-'));
    const file = await writeOrchestratorServers(dir, exported);
    assert.ok(file);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const read = await loadPersonServers(dir, { [PERSON_SERVERS_ENV]: file });
    assert.deepEqual(read.problems, []);
    assert.deepEqual([...read.configs.keys()].sort(), ['notes', 'remote']);
    const notes = read.configs.get('notes')!;
    assert.equal(notes.transport, 'stdio');
  });

  test('a changed setting is a new file and the old one goes; no servers, no file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-export-'));
    const a = await writeOrchestratorServers(dir, orchestratorServers({ a: { type: 'stdio', command: 'a' } }));
    const b = await writeOrchestratorServers(dir, orchestratorServers({ a: { type: 'stdio', command: 'b' } }));
    assert.notEqual(a, b);
    assert.deepEqual(readdirSync(dir), [b!.split('/').pop()]);
    assert.equal(await writeOrchestratorServers(dir, orchestratorServers(undefined)), undefined);
    assert.deepEqual(readdirSync(dir), []);
    assert.equal(orchestratorServers([1, 2]), undefined);
  });
});
