// The person's mcpAgent.servers reach the orchestrator as a file its reader takes, so a sub-agent's
// definition may name one in the extension as in the CLI; servers that need the window's inputs stay out.
// The file's path never changes (only the orchestrator is told it, and editing the setting restarts
// nothing); the orchestrator sees a new version by its stamp.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orchestratorServers, writeOrchestratorServers } from '../../src/core/mcp/config/orchestrator-export';
import { loadPersonServers, personServersStamp } from '../../servers/orchestrator/person-servers';
import { bundledServerEnv, PERSON_SERVERS_ENV } from '../../src/core/mcp/hub/bundled-servers';

describe("the person's servers for the orchestrator", () => {
  test('written for the orchestrator reader: stdio and http kept, an ${input:} server left out and said', async () => {
    const setting = {
      notes: { type: 'stdio', command: 'node', args: ['notes.js'], env: { TOKEN: 'x' } },
      remote: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
      secret: { type: 'stdio', command: 'node', env: { KEY: '${input:key}' } },
    };
    const exported = orchestratorServers(setting);
    assert.deepEqual(exported.left, ['secret (it asks for an input, which only the window can)']);
    const dir = mkdtempSync(join(tmpdir(), 'orch-export-'));
    const file = await writeOrchestratorServers(dir, exported);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const read = await loadPersonServers(dir, { [PERSON_SERVERS_ENV]: file });
    assert.deepEqual(read.problems, []);
    assert.deepEqual([...read.configs.keys()].sort(), ['notes', 'remote']);
    assert.equal(read.configs.get('notes')!.transport, 'stdio');
  });

  test('one path for good: an edit rewrites it (a new stamp), the same setting leaves it alone, none is an empty list', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-export-'));
    const a = await writeOrchestratorServers(dir, orchestratorServers({ a: { type: 'stdio', command: 'a' } }));
    const env = { [PERSON_SERVERS_ENV]: a };
    const first = await personServersStamp(env);
    assert.equal(await writeOrchestratorServers(dir, orchestratorServers({ a: { type: 'stdio', command: 'a' } })), a);
    assert.equal(await personServersStamp(env), first, 'the same setting does not touch the file');
    const b = await writeOrchestratorServers(dir, orchestratorServers({ a: { type: 'stdio', command: 'bb' } }));
    assert.equal(b, a);
    assert.notEqual(await personServersStamp(env), first);
    assert.deepEqual((await loadPersonServers(dir, env)).configs.get('a')?.transport, 'stdio');
    await writeOrchestratorServers(dir, orchestratorServers(undefined));
    assert.equal((await loadPersonServers(dir, env)).configs.size, 0);
    assert.deepEqual(readdirSync(dir), ['orchestrator-servers.json']);
  });

  test('only the orchestrator is told where the file is', () => {
    const source = { [PERSON_SERVERS_ENV]: '/x/orchestrator-servers.json', MCP_AGENT_HOME: '/h' };
    assert.equal(bundledServerEnv('orchestrator', source)[PERSON_SERVERS_ENV], '/x/orchestrator-servers.json');
    for (const name of ['workspace', 'web', 'research'] as const) {
      assert.equal(bundledServerEnv(name, source)[PERSON_SERVERS_ENV], undefined, name);
      assert.equal(bundledServerEnv(name, source).MCP_AGENT_HOME, '/h');
    }
  });
});
